import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startGateway } from '../main.js';
import { walkEntries } from '../store/walkEntries.js';
import { postJson, waitForReceipt } from '../test-support/startTestGateway.js';
import { spawnGateway } from '../test-support/spawnGateway.js';

// Issue 20, item 11: the embedded database's files were world-writable (968 files at 0666, the
// WAL with key and password hashes among them). The data directory is now 0700 and everything in
// it 0600/0700 (umask 077 for the gateway and its embedded backends, the embedded database's files made private
// after it opens); at start, entries other users can write refuse the start, entries they can
// read are reported.

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-perm-'));
  made.push(dir);
  return dir;
}

/** Every entry under `dir` (and `dir`) that its group or other users can read, write or enter. */
async function notPrivate(dir: string): Promise<string[]> {
  const loose: string[] = [];
  const top = await stat(dir);
  if ((top.mode & 0o077) !== 0) loose.push(`. ${(top.mode & 0o777).toString(8)}`);
  await walkEntries(dir, (path, s) => {
    if (!s.isSymbolicLink() && (s.mode & 0o077) !== 0)
      loose.push(`${relative(dir, path)} ${(s.mode & 0o777).toString(8)}`);
  });
  return loose;
}

describe('the data directory is private (issue 20, item 11)', () => {
  it('a fresh install: nothing under the data directory is open to other users, while running and after', async () => {
    const dataDir = join(await tempDir(), 'data');
    const gw = await spawnGateway({
      dataDir,
      devKey: true,
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          chainId: 31337,
          dev: true,
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', embedded: 'anvil' }],
        },
        {
          name: 'starknet-devnet',
          family: 'starknet',
          chainId: 'SN_SEPOLIA',
          dev: true,
          pathPrefix: '/starknet-devnet',
          upstreams: [{ name: 'devchain', embedded: 'starknet-devchain' }],
        },
      ],
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
    });
    try {
      const { key, secret } = gw.ready.devKey!;
      const rpcUrl = `${gw.ready.networks['eth-devnet']!.http}/v3/${key}`;
      // writes everywhere: a key (the database and its WAL), a transaction (anvil's state file),
      // a file (the IPFS repository), a Starknet block
      const admin = await fetch(`${gw.ready.admin.url}/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.ready.admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'tenant' }),
      });
      expect(admin.ok).toBe(true);
      const accounts = await postJson(rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] });
      const sent = await postJson(rpcUrl, {
        jsonrpc: '2.0',
        id: 2,
        method: 'eth_sendTransaction',
        params: [{ from: accounts.json.result[0], to: `0x${'11'.repeat(20)}`, value: '0x1' }],
      });
      await waitForReceipt(rpcUrl, sent.json.result);
      const form = new FormData();
      form.append('file', new Blob([`private ${Date.now()}`]), 'a.txt');
      const base = new URL(gw.ready.admin.url).origin;
      const added = await fetch(`${base}/ipfs/api/v0/add`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
        body: form,
      });
      expect(added.status).toBe(200);
      const stk = `${gw.ready.networks['starknet-devnet']!.http}/v3/${key}`;
      expect((await postJson(stk, { jsonrpc: '2.0', id: 3, method: 'devnet_createBlock', params: [] })).status).toBe(
        200,
      );
      // anvil writes its state file every second
      await new Promise((r) => setTimeout(r, 1_500));
      const entries: string[] = [];
      await walkEntries(dataDir, (path) => void entries.push(relative(dataDir, path)));
      for (const expected of [
        'db',
        'db/nodegate.db',
        'db/nodegate.db-wal',
        'gateway.pid',
        'admin-token',
        'dev-key.json',
        'anvil/state.json',
        'ipfs',
      ]) {
        expect(entries).toContain(expected);
      }
      expect(entries.length).toBeGreaterThan(20);
      expect(await notPrivate(dataDir)).toEqual([]);
    } finally {
      gw.child.kill('SIGTERM');
      await new Promise((r) => (gw.child.exitCode === null ? gw.child.once('exit', r) : r(undefined)));
    }
    // what the stop wrote (the database's checkpoint, anvil's last state) too
    expect(await notPrivate(dataDir)).toEqual([]);
    await gw.stop();
  });

  /** One network whose upstream is never asked (nothing listens on port 9). */
  const NETWORKS = [
    { name: 'eth', family: 'eth', pathPrefix: '/eth', upstreams: [{ name: 'none', http: 'http://127.0.0.1:9' }] },
  ];
  const minimal = (dataDir: string) => validateConfig({ listen: '127.0.0.1:0', dataDir, networks: NETWORKS });

  it('a data directory other users can write in refuses the start, naming it and the fix', async () => {
    const dataDir = join(await tempDir(), 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    await expect(startGateway(minimal(dataDir))).rejects.toThrow(
      new RegExp(`the data directory ${dataDir} is not private: 1 entry can be written by other users \\(\\. 0777\\)`),
    );
    await expect(startGateway(minimal(dataDir))).rejects.toThrow(/chmod -R go-rwx/);
  });

  it('a file in it other users can write (the database of an older install) refuses the start too', async () => {
    const dataDir = join(await tempDir(), 'data');
    await mkdir(join(dataDir, 'db', 'pg_wal'), { recursive: true, mode: 0o700 });
    await chmod(dataDir, 0o700);
    await writeFile(join(dataDir, 'db', 'pg_wal', '000000010000000000000001'), 'wal');
    await chmod(join(dataDir, 'db', 'pg_wal', '000000010000000000000001'), 0o666);
    await expect(startGateway(minimal(dataDir))).rejects.toThrow(/db\/pg_wal\/000000010000000000000001 0666/);
    // once made private, it starts
    await chmod(join(dataDir, 'db', 'pg_wal', '000000010000000000000001'), 0o600);
    const gw = await startGateway(minimal(dataDir));
    await gw.close();
  });

  it('a data directory other users can only read starts, with a warning naming what they can read', async () => {
    const dataDir = join(await tempDir(), 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'notes.txt'), 'hello');
    await chmod(join(dataDir, 'notes.txt'), 0o644);
    const gw = await spawnGateway({ dataDir, networks: NETWORKS, log: { level: 'warn' } });
    try {
      const warning = gw.logLines().find((l) => l.msg?.startsWith('the data directory can be read by other users'));
      expect(warning).toMatchObject({ level: 'warn', dataDir, entries: 2, first: ['. 0755', 'notes.txt 0644'] });
      // what the gateway wrote there itself is private
      const own = (await notPrivate(dataDir)).filter((e) => !e.startsWith('. ') && !e.startsWith('notes.txt '));
      expect(own).toEqual([]);
    } finally {
      await gw.stop();
    }
  });
});
