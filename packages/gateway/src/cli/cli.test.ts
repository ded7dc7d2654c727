import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from '../test-support/startTestGateway.js';

const run = promisify(execFile);
// The CLI as users run it: the built bin (npm test builds before testing).
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  ready: {
    networks: Record<string, { family: string; http: string; ws: string }>;
    devKey: { key: string; secret: string };
    url: string;
    dashboard: { url: string; signInUrl: string };
    admin: { url: string; token: string };
  };
}

async function start(dataDir: string): Promise<Started> {
  const readyFile = join(dataDir, 'ready.json');
  await rm(readyFile, { force: true });
  const child = spawn(process.execPath, [
    CLI,
    'start',
    '--listen',
    '127.0.0.1:0',
    '--data-dir',
    dataDir,
    '--ready-file',
    readyFile,
  ]);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const end = Date.now() + 60_000;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${out}`);
    if (Date.now() > end) throw new Error(`no ready file: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output: () => out, ready: JSON.parse(await readFile(readyFile, 'utf8')) };
}

async function stop(s: Started): Promise<number | null> {
  return new Promise((resolve) => {
    s.child.once('exit', (code) => resolve(code));
    s.child.kill('SIGTERM');
  });
}

function childPids(pid: number): Promise<number[]> {
  return run('pgrep', ['-P', String(pid)]).then(
    (r) => r.stdout.trim().split('\n').filter(Boolean).map(Number),
    () => [],
  );
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('nodegate CLI', () => {
  it('start: serves, prints URLs, the dev key and a sign-in link, writes the ready file and admin.json; keys create/list/set/show/revoke over the admin API while running; stops cleanly; keys offline; keys survive a restart', async () => {
    const dataDir = join(dir, 'data');
    const first = await start(dataDir);
    const net = first.ready.networks['eth-devnet']!;
    expect(net.family).toBe('eth');
    expect(net.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/eth-devnet$/);
    expect(net.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/eth-devnet$/);
    expect(first.output()).toContain(first.ready.devKey.key);
    expect(first.output()).toContain(`${net.http}/v3/<API_KEY>`);
    expect((await rpc(`${net.http}/v3/${first.ready.devKey.key}`, 'eth_chainId')).result).toBe('0x7a69');

    // the operator: a one-time dashboard sign-in link (printed and in the ready file), the admin
    // token in <dataDir>/admin-token (0600), and admin.json naming the running gateway's URL
    expect(first.ready.dashboard.signInUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/sign-in\?token=[\w-]{43}$/);
    expect(first.output()).toContain(first.ready.dashboard.signInUrl);
    expect(JSON.parse(await readFile(join(dataDir, 'admin.json'), 'utf8'))).toEqual({ url: first.ready.url });
    const adminToken = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    expect((await stat(join(dataDir, 'admin-token'))).mode & 0o777).toBe(0o600);
    expect(first.output()).not.toContain(adminToken);
    const signIn = await fetch(`${first.ready.url}/admin/api/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signInToken: new URL(first.ready.dashboard.signInUrl).searchParams.get('token') }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('set-cookie')).toMatch(/^nodegate_session=/);

    // keys through the running gateway's admin API
    const keys = (...args: string[]) => run(process.execPath, [CLI, 'keys', ...args, '--data-dir', dataDir]);
    const created = JSON.parse((await keys('create', '--plan', 'team', '--name', 'ci', '--json')).stdout);
    expect(created.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(created.plan).toBe('team');
    expect((await rpc(`${net.http}/v3/${created.key}`, 'eth_chainId')).result).toBe('0x7a69');
    const toRevoke = JSON.parse((await keys('create', '--json')).stdout);
    expect((await rpc(`${net.http}/v3/${toRevoke.key}`, 'eth_chainId')).result).toBe('0x7a69');
    await keys('revoke', toRevoke.key);
    const revokedCall = await fetch(`${net.http}/v3/${toRevoke.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
    });
    expect(revokedCall.status).toBe(401);

    // settings take effect at once (the gateway drops its cached key on the change)
    const set = JSON.parse((await keys('set', created.key, '--allowed-methods', 'eth_blockNumber', '--json')).stdout);
    expect(set.settings.allowedMethods).toEqual(['eth_blockNumber']);
    expect((await rpc(`${net.http}/v3/${created.key}`, 'eth_chainId')).error).toBeDefined();
    expect((await rpc(`${net.http}/v3/${created.key}`, 'eth_blockNumber')).result).toMatch(/^0x/);
    const bad = await keys('set', created.key, '--allowed-origins', 'https://a.example.com/path').catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('settings.allowedOrigins[0]');
    await keys('set', created.key, '--allowed-methods', '');
    expect((await rpc(`${net.http}/v3/${created.key}`, 'eth_chainId')).result).toBe('0x7a69');
    const shown = (await keys('show', created.key)).stdout;
    expect(shown).toMatch(/plan:\s+team \(key override\)/);
    expect(shown).toMatch(/allowed methods:\s+\(any\)/);

    const listed = JSON.parse((await keys('list', '--json')).stdout);
    expect(listed.map((k: any) => k.key)).toEqual([first.ready.devKey.key, created.key, toRevoke.key]);
    expect(listed[2].revokedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(first.output()).not.toContain(created.key);

    // SIGTERM stops the gateway and its anvil, and removes admin.json
    const kids = await childPids(first.child.pid!);
    expect(kids.length).toBeGreaterThan(0);
    expect(await stop(first)).toBe(0);
    for (const pid of kids) expect(alive(pid)).toBe(false);
    expect(existsSync(join(dataDir, 'admin.json'))).toBe(false);

    // keys while stopped: the same API in-process over the database
    const offline = (await keys('list')).stdout;
    expect(offline).toContain(created.key);
    expect(offline).toMatch(new RegExp(`${toRevoke.key}\\s+revoked`));
    const offlineSet = JSON.parse((await keys('set', created.key, '--credits-per-day', '1000', '--json')).stdout);
    expect(offlineSet.settings.creditsPerDay).toBe(1000);

    const second = await start(dataDir);
    try {
      expect(second.ready.devKey).toEqual(first.ready.devKey);
      expect(second.ready.dashboard.signInUrl).not.toBe(first.ready.dashboard.signInUrl);
      expect((await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()).toBe(adminToken);
      const url = second.ready.networks['eth-devnet']!.http;
      expect((await rpc(`${url}/v3/${created.key}`, 'eth_chainId')).result).toBe('0x7a69');
      expect(
        (
          await fetch(`${url}/v3/${toRevoke.key}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(401);
      expect(JSON.parse((await keys('show', created.key, '--json')).stdout).settings.creditsPerDay).toBe(1000);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 180_000);

  it('config check accepts a good file and names the bad field of a bad one', async () => {
    const good = join(dir, 'good.yaml');
    await writeFile(
      good,
      'listen: 0.0.0.0:8550\nnetworks:\n  - name: mainnet\n    family: eth\n    hosts: [mainnet.example.org]\n    upstreams:\n      - name: reth-1\n        http: http://10.0.0.5:8545\n        ws: ws://10.0.0.5:8546\n',
    );
    expect((await run(process.execPath, [CLI, 'config', 'check', good])).stdout).toContain('OK');
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        networks: [{ name: 'm', family: 'eth', pathPrefix: '/m', upstreams: [{ name: 'a', http: 'ftp://x' }] }],
      }),
    );
    const err = await run(process.execPath, [CLI, 'config', 'check', bad]).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('networks[0].upstreams[0].http');
  });

  it('unknown commands print usage and exit 2', async () => {
    const err = await run(process.execPath, [CLI, 'frobnicate']).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('usage:');
    const noKey = await run(process.execPath, [CLI, 'keys', 'show', '--data-dir', join(dir, 'nokey')]).catch((e) => e);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('usage: nodegate keys show KEY');
  });
});
