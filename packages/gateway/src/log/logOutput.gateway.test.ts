import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { spawnGateway } from '../test-support/spawnGateway.js';
import { postJson } from '../test-support/startTestGateway.js';

// What a terminal shows: the gateway as users run it (the built CLI), in each log format.
let anvil: EmbeddedProcess;
let dir: string;

beforeAll(async () => {
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-logout-'));
});
afterAll(async () => {
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

const networks = () => [
  { name: 'eth-devnet', family: 'eth', pathPrefix: '/eth-devnet', upstreams: [{ name: 'anvil', http: anvil.http }] },
];
const call = (method: string) => ({ jsonrpc: '2.0', id: 1, method, params: [] });

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('log output of a running gateway', () => {
  it('text (the default): a human summary on stdout, warnings one line each on stderr, the access log in <dataDir>/logs/access.log', async () => {
    // a data directory others can read: the gateway warns at startup
    const dataDir = join(dir, 'text-data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'notes.txt'), 'hello', { mode: 0o644 });
    const gw = await spawnGateway({
      dataDir,
      devKey: true,
      networks: networks(),
      log: { format: 'text', access: true },
    });
    try {
      const { key, secret } = gw.ready.devKey!;
      const url = `${gw.ready.networks['eth-devnet']!.http}/v3/${key}`;
      for (const m of ['eth_chainId', 'eth_blockNumber', 'eth_madeUp'])
        expect((await postJson(url, call(m))).status).toBe(200);

      const file = join(dataDir, 'logs', 'access.log');
      const lines = await until(async () => {
        const text = existsSync(file) ? await readFile(file, 'utf8') : '';
        const found = text.split('\n').filter(Boolean);
        return found.length >= 3 ? found.map((l) => JSON.parse(l)) : undefined;
      }, 'three access lines in the file');
      expect(lines.map((l) => [l.msg, l.method, l.status])).toEqual([
        ['request', 'eth_chainId', 200],
        ['request', 'eth_blockNumber', 200],
        ['request', 'eth_madeUp', 200],
      ]);
      expect(lines.every((l) => l.key === `${key.slice(0, 4)}…`)).toBe(true);

      // the terminal: the summary names the access log; warnings are single human lines; no JSON anywhere
      const stdout = gw.output().slice(0, gw.output().length - gw.stderr().length - 1);
      expect(stdout).toContain('nodegate: listening on http://127.0.0.1:');
      expect(stdout).toContain(`access log: ${file} (JSON lines; a new file past 10 MiB, 2 old ones kept)`);
      expect(stdout).toContain(`development API key: ${key}`);
      const stderr = gw.stderr().split('\n').filter(Boolean);
      expect(stderr.length).toBeGreaterThan(0);
      for (const l of stderr) expect(l).toMatch(/^\d\d:\d\d:\d\d (error|warn |info ) \S/);
      expect(stderr.join('\n')).toMatch(/warn {2}the data directory can be read by other users/);
      expect(gw.output()).not.toContain('"msg":"request"');
      expect(gw.stderr()).not.toContain(secret);
    } finally {
      await gw.stop();
    }
  });

  it('json: every stdout line is JSON (the start event, warnings, the access log), with no secret and no sign-in link', async () => {
    const dataDir = join(dir, 'json-data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755); // a warning at startup, as a JSON line too
    const gw = await spawnGateway({
      dataDir,
      devKey: true,
      networks: networks(),
      log: { format: 'json', access: true },
    });
    try {
      const { key, secret } = gw.ready.devKey!;
      const url = `${gw.ready.networks['eth-devnet']!.http}/v3/${key}`;
      expect((await postJson(url, call('eth_chainId'))).status).toBe(200);
      await until(async () => (gw.logLines().some((l) => l.msg === 'request') ? true : undefined), 'the access line');
      const stdout = gw.output().slice(0, gw.output().length - gw.stderr().length - 1);
      const lines = stdout.split('\n').filter(Boolean);
      for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
      const started = gw.logLines().find((l) => l.msg === 'nodegate started');
      expect(started).toMatchObject({
        level: 'info',
        url: gw.ready.admin.url.replace(/\/admin\/api\/v1$/, ''),
        networks: { 'eth-devnet': { family: 'eth', http: gw.ready.networks['eth-devnet']!.http } },
        devKeyFile: join(dataDir, 'dev-key.json'),
      });
      expect(
        gw.logLines().find((l) => l.msg.startsWith('the data directory can be read by other users')),
      ).toMatchObject({
        level: 'warn',
        dataDir,
      });
      expect(gw.logLines().find((l) => l.msg === 'request')).toMatchObject({
        method: 'eth_chainId',
        key: `${key.slice(0, 4)}…`,
      });
      expect(gw.output()).not.toContain(key);
      expect(gw.output()).not.toContain(secret);
      expect(gw.output()).not.toContain('sign-in?token=');
      expect(existsSync(join(dataDir, 'logs'))).toBe(false);
      expect(gw.stderr()).toBe('');
    } finally {
      await gw.stop();
    }
  });
});
