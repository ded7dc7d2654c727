import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { createLogger } from '../log/createLogger.js';
import { startAnvil } from './startAnvil.js';
import { startEmbeddedBackends } from './startEmbeddedBackends.js';

// The embedded backends as `npm start` runs them: the built CLI on the embedded defaults, in a
// process of its own, killed and restarted for real.
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const BACKENDS = { anvil: 'anvil', 'starknet-devchain': 'starknet-devchain', 'ipfs-node': 'ipfs' } as const;
type Backend = keyof typeof BACKENDS;

interface Started {
  child: ChildProcess;
  ready: {
    networks: Record<string, { http: string }>;
    ipfs?: string;
    devKey: { key: string; secret: string };
  };
  /** Every JSON log line the gateway wrote so far (`--log-format json`: on stdout). */
  logs: Record<string, unknown>[];
}

let dir: string;
let dataDir: string;

/** `nodegate start` on the embedded defaults in `dataDir`, or on a config file. */
async function startCli(configFile?: string): Promise<Started> {
  const readyFile = join(dir, `ready-${Date.now()}.json`);
  const where = configFile ? ['--config', configFile] : ['--listen', '127.0.0.1:0', '--data-dir', dataDir];
  const child = spawn(process.execPath, [CLI, 'start', ...where, '--log-format', 'json', '--ready-file', readyFile], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const logs: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout!.on('data', (c: Buffer) => {
    buffered += c.toString();
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {}
      nl = buffered.indexOf('\n');
    }
  });
  for (let i = 0; !existsSync(readyFile); i++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    if (i > 1200) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, ready: JSON.parse(await readFile(readyFile, 'utf8')), logs };
}

function stopCli(s: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill(signal);
  });
}

async function pidOf(backend: Backend): Promise<number | undefined> {
  const text = await readFile(join(dataDir, BACKENDS[backend], 'nodegate-child.pid'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as { pid: number }).pid;
}

/** Whether a process runs (a zombie waiting for its parent to reap it does not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

async function rpc(url: string, method: string, params: unknown = []): Promise<any> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(2_000),
  });
  const body = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** Kills the gateway's watchdog process (SIGKILL): nothing but the backends' own checks stops them now. */
async function killWatchdog(s: Started): Promise<void> {
  const children = (await readFile(`/proc/${s.child.pid}/task/${s.child.pid}/children`, 'utf8'))
    .trim()
    .split(/\s+/)
    .map(Number)
    .filter((p) => p > 0);
  let killed = 0;
  for (const p of children) {
    const cmd = await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes('watchdog.js')) {
      process.kill(p, 'SIGKILL');
      killed++;
    }
  }
  expect(killed).toBe(1);
}

/** One request per family; resolves when all three answer. */
async function serves(s: Started): Promise<void> {
  const key = s.ready.devKey.key;
  await rpc(`${s.ready.networks['eth-devnet']!.http}/v3/${key}`, 'eth_blockNumber');
  await rpc(`${s.ready.networks['starknet-devnet']!.http}/v3/${key}`, 'starknet_blockNumber', {});
  const auth = `Basic ${Buffer.from(`${key}:${s.ready.devKey.secret}`).toString('base64')}`;
  const r = await fetch(`${s.ready.ipfs}/api/v0/version`, { method: 'POST', headers: { authorization: auth } });
  if (r.status !== 200) throw new Error(`ipfs answered ${r.status}`);
}

/** Polls `check` until it passes; resolves with the time it took, in ms. */
async function until(check: () => Promise<unknown>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (err) {
      if (Date.now() - started > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-supervision-'));
  dataDir = join(dir, 'data');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('supervision of the embedded backends', () => {
  it('a killed backend is restarted on the same address within 5 s, and the restart is logged', async () => {
    const gw = await startCli();
    try {
      await serves(gw);
      for (const backend of Object.keys(BACKENDS) as Backend[]) {
        const pid = (await pidOf(backend))!;
        expect(alive(pid)).toBe(true);
        process.kill(pid, 'SIGKILL');
        const took = await until(() => serves(gw), 5_000);
        expect(took).toBeLessThan(5_000);
        // the pid file and the log line follow the restart
        await until(async () => {
          if ((await pidOf(backend)) === pid) throw new Error('the pid file still names the killed process');
          const restarted = gw.logs.some((l) => l.msg === 'embedded backend restarted' && l.backend === backend);
          if (!restarted) throw new Error('no restart logged');
        }, 2_000);
        expect(gw.logs).toContainEqual(
          expect.objectContaining({ level: 'warn', msg: 'embedded backend exited; restarting it', backend }),
        );
      }
    } finally {
      await stopCli(gw);
    }
    // a graceful stop stops the backends for good (no restart) and removes their pid files
    for (const backend of Object.keys(BACKENDS) as Backend[]) expect(await pidOf(backend)).toBeUndefined();
  });

  it('the Ethereum chain keeps its state across a restart of the gateway and a killed anvil', async () => {
    const to = `0x${'42'.repeat(20)}`;
    let gw = await startCli();
    const eth = () => `${gw.ready.networks['eth-devnet']!.http}/v3/${gw.ready.devKey.key}`;
    try {
      const [from] = await rpc(eth(), 'eth_accounts');
      await rpc(eth(), 'eth_sendTransaction', [{ from, to, value: '0x1234' }]);
      expect(await rpc(eth(), 'eth_getBalance', [to, 'latest'])).toBe('0x1234');
    } finally {
      await stopCli(gw);
    }
    gw = await startCli();
    try {
      expect(await rpc(eth(), 'eth_getBalance', [to, 'latest'])).toBe('0x1234');
      const [from] = await rpc(eth(), 'eth_accounts');
      await rpc(eth(), 'eth_sendTransaction', [{ from, to, value: '0x1' }]);
      // the state is written every second: after that, even a SIGKILL keeps it
      await new Promise((r) => setTimeout(r, 2_500));
      process.kill((await pidOf('anvil'))!, 'SIGKILL');
      await until(() => rpc(eth(), 'eth_blockNumber'), 5_000);
      expect(await rpc(eth(), 'eth_getBalance', [to, 'latest'])).toBe('0x1235');
    } finally {
      await stopCli(gw);
    }
  });

  it('backends die with a gateway killed by SIGKILL, and the next start on the same data directory serves', async () => {
    const gw = await startCli();
    await serves(gw);
    const pids = await Promise.all((Object.keys(BACKENDS) as Backend[]).map(pidOf));
    await stopCli(gw, 'SIGKILL');
    // the watchdog stops anvil, the dev chain and the IPFS node notice the gateway is gone
    await until(async () => {
      const left = pids.filter((p) => p !== undefined && alive(p));
      if (left.length > 0) throw new Error(`still running: ${left.join(', ')}`);
    }, 8_000);
    const again = await startCli();
    try {
      await serves(again);
    } finally {
      await stopCli(again);
    }
  });

  it('every backend stops with a gateway killed by SIGKILL even when its watchdog was killed first', async () => {
    const gw = await startCli();
    await serves(gw);
    const pids = (await Promise.all((Object.keys(BACKENDS) as Backend[]).map(pidOf))).filter(
      (p): p is number => p !== undefined,
    );
    expect(pids).toHaveLength(3);
    await killWatchdog(gw);
    await stopCli(gw, 'SIGKILL');
    // anvil: the kernel's parent-death signal (setpriv); the dev chain and the IPFS node: their own check
    const took = await until(async () => {
      const left = pids.filter((p) => alive(p));
      if (left.length > 0) throw new Error(`still running: ${left.join(', ')}`);
    }, 8_000);
    expect(took).toBeLessThan(8_000);
  });

  it('a backend left running by an earlier gateway is reaped at the next start', async () => {
    // an anvil on this data directory's chain that nothing stops (no parent-death signal, no
    // watchdog), recorded in its pid file as a gateway would have left it
    const anvilDir = join(dataDir, 'anvil');
    await mkdir(anvilDir, { recursive: true });
    const stateFile = join(anvilDir, 'state.json');
    const left = await startAnvil({ stateFile, dieWithParent: false });
    await writeFile(join(anvilDir, 'nodegate-child.pid'), JSON.stringify({ pid: left.pid, marker: stateFile }));
    expect(alive(left.pid)).toBe(true);
    const again = await startCli();
    try {
      await left.exited;
      expect(alive(left.pid)).toBe(false);
      await serves(again);
      expect(again.logs).toContainEqual(
        expect.objectContaining({
          msg: 'stopped an embedded backend left running by an earlier gateway',
          pid: left.pid,
        }),
      );
    } finally {
      await stopCli(again);
    }
  });
});

describe('one gateway per data directory with embedded backends, also on PostgreSQL', () => {
  const PG = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `lock_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  let configFile: string;
  let lockDir: string;

  beforeAll(async () => {
    lockDir = join(dir, 'pg-data');
    configFile = join(dir, 'pg.json');
    await writeFile(
      configFile,
      JSON.stringify({
        listen: '127.0.0.1:0',
        dataDir: lockDir,
        devKey: true,
        database: { kind: 'postgres', url: PG, schema },
        networks: [
          {
            name: 'eth-devnet',
            family: 'eth',
            dev: true,
            pathPrefix: '/eth-devnet',
            upstreams: [{ name: 'anvil', embedded: 'anvil' }],
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    const client = new pg.Client(PG);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it("a second gateway on the same data directory is refused, and the first's backends keep serving", async () => {
    const first = await startCli(configFile);
    try {
      const eth = `${first.ready.networks['eth-devnet']!.http}/v3/${first.ready.devKey.key}`;
      await rpc(eth, 'eth_blockNumber');
      const anvil = JSON.parse(await readFile(join(lockDir, 'anvil', 'nodegate-child.pid'), 'utf8')).pid as number;
      // the second one: refused before it touches the backends
      const second = spawn(process.execPath, [CLI, 'start', '--config', configFile], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      second.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code).not.toBe(0);
      expect(stderr).toContain(`in use by another nodegate process (pid ${first.child.pid})`);
      expect(alive(anvil)).toBe(true);
      await rpc(eth, 'eth_blockNumber');
      // the anvil directory itself is held by the supervising gateway: embedded backends started
      // on it from elsewhere (here, this process) are refused too, and nothing is reaped
      const config = validateConfig(JSON.parse(await readFile(configFile, 'utf8')));
      const refused = await startEmbeddedBackends(config, () => {}, createLogger('error')).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toBe(
        `the anvil data directory ${join(lockDir, 'anvil')} is in use by another nodegate process (pid ${first.child.pid})`,
      );
      expect(alive(anvil)).toBe(true);
      await rpc(eth, 'eth_blockNumber');
    } finally {
      await stopCli(first);
    }
    // stopped: the locks are gone with it
    expect(existsSync(join(lockDir, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(lockDir, 'anvil', 'supervisor.lock'))).toBe(false);
  });
});
