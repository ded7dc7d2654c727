import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startIpfsNode } from '../embedded/startIpfsNode.js';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { type RunningGateway, startGateway } from '../main.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { createTestKey } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 23: one key's MFS through two gateway instances that share a PostgreSQL schema (through a
// TCP proxy the test stalls) and one IPFS node. Changes made through both at once all land (the
// compare-and-set on the stored root); while the database is away, files/* answer the gateway's
// 503 with Retry-After in Kubo's shape, quickly, and nothing half-done remains.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const schema = `mfs_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const QUERY_TIMEOUT_MS = 1_500;
const MARGIN_MS = 2_500;

let repo: string;
let node: EmbeddedProcess;
let proxy: TcpProxy;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;
let viaOne: KuboRPCClient;
let viaTwo: KuboRPCClient;
let authorization: string;

async function instance(): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-mfs-instances-'));
  dirs.push(dataDir);
  const url = new URL(PG);
  url.host = proxy.address;
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: {
        kind: 'postgres',
        url: url.toString(),
        schema,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        connectTimeoutMs: 500,
      },
      networks: [],
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'node', http: node.http }, gc: { intervalMs: 0 } },
    }),
    { logLevel: 'silent' },
  );
}

const all = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
};

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-mfs-instances-repo-'));
  node = await startIpfsNode({ repo });
  proxy = await createTcpProxy(PG);
  one = await instance();
  two = await instance();
  const key = await createTestKey(one);
  authorization = basicAuth(key.key, key.secret);
  viaOne = create({ url: `${one.ipfs}/api/v0`, headers: { authorization } });
  viaTwo = create({ url: `${two.ipfs}/api/v0`, headers: { authorization } });
}, 180_000);

afterAll(async () => {
  proxy?.restore();
  await one?.close();
  await two?.close();
  await proxy?.close();
  await node?.stop();
  for (const dir of [...dirs, repo]) if (dir) await rm(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

describe('one key’s MFS through two gateway instances', () => {
  it('writes and mkdirs through both instances at once all land', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `f${i}`);
    await Promise.all(
      names.map((n, i) =>
        i % 3 === 0
          ? (i % 2 ? viaOne : viaTwo).files.mkdir(`/shared/${n}`, { parents: true })
          : (i % 2 ? viaOne : viaTwo).files.write(`/shared/${n}`, randomBytes(500), { create: true, parents: true }),
      ),
    );
    const seenByOne = (await all(viaOne.files.ls('/shared'))).map((e) => e.name).sort();
    const seenByTwo = (await all(viaTwo.files.ls('/shared'))).map((e) => e.name).sort();
    expect(seenByOne).toEqual([...names].sort());
    expect(seenByTwo).toEqual(seenByOne);
    expect((await viaOne.files.stat('/')).cid.toString()).toBe((await viaTwo.files.stat('/')).cid.toString());
  });

  it('while the database is away: a quick 503 with Retry-After in Kubo’s shape for MFS and pins, nothing half-done', async () => {
    const before = (await viaOne.files.stat('/')).cid.toString();
    proxy.stall();
    try {
      for (const [command, query] of [
        ['files/mkdir', 'arg=/during-outage'],
        ['files/ls', 'arg=/'],
        // pins and stored bytes are in the database too (not only MFS)
        ['pin/ls', 'type=recursive'],
        ['pin/add', `arg=${before}`],
      ] as const) {
        const started = Date.now();
        const res = await fetch(`${one.ipfs}/api/v0/${command}?${query}`, {
          method: 'POST',
          headers: { authorization },
        });
        expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS * 2 + MARGIN_MS);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await res.json()).toEqual({
          Message: expect.stringMatching(/database-unavailable$/),
          Code: 0,
          Type: 'error',
        });
      }
    } finally {
      proxy.restore();
    }
    // once the database answers again (each instance notices within its health probe)
    await until(
      () =>
        viaOne.files.stat('/').then(
          (s) => s.cid.toString(),
          () => undefined,
        ),
      'instance one reads the database again',
    );
    await until(
      () =>
        viaTwo.files.stat('/').then(
          () => true,
          () => undefined,
        ),
      'instance two reads it again',
    );
    expect((await viaOne.files.stat('/')).cid.toString()).toBe(before);
    await expect(viaTwo.files.stat('/during-outage')).rejects.toThrow(/does not exist/);
    await viaTwo.files.mkdir('/after-outage');
    expect((await viaOne.files.stat('/after-outage')).type).toBe('directory');
  });
});
