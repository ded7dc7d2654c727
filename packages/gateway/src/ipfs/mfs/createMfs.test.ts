import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlQuery } from '../../store/createSqlKeyStore.js';
import { createUploadLedger } from '../createUploadLedger.js';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import type { PinStore } from '../pins/PinStore.js';
import { createSqlPinStore } from '../pins/createSqlPinStore.js';
import { CIDV0_PREFIX } from './blockPrefix.js';
import { createCollectionGate } from './createCollectionGate.js';
import { createMfs, type Mfs } from './createMfs.js';
import { createSqlMfsRootStore } from './createSqlMfsRootStore.js';
import { emptyDirectory, listEntries } from './directoryEntries.js';
import type { MfsRootStore } from './MfsRootStore.js';
import { editEntry, linkTo } from './mfsTree.js';
import { withMfsRoots } from './withMfsRoots.js';

// The MFS engine with two gateway instances: each has its own in-process lock and gate, they share
// the database (the roots' compare-and-set) and the node. Concurrent changes of one key from both
// instances all land; a change that cannot land counts what it stored.

let node: IpfsNode;
let repo: string;
let db: PGlite;
let upstream: IpfsUpstream;
let roots: MfsRootStore;
let pins: PinStore;

const instance = (maxStoredBytesPerKey = 10_000_000): Mfs =>
  createMfs({
    upstream,
    roots,
    pins,
    uploads: createUploadLedger(),
    maxStoredBytesPerKey,
    gate: createCollectionGate(),
  });

const mkdir =
  (name: string) =>
  async (session: Parameters<Parameters<Mfs['change']>[1]>[0], root: Parameters<Parameters<Mfs['change']>[1]>[1]) => ({
    root: await editEntry(session, root, [], name, () => linkTo(name, emptyDirectory(session, CIDV0_PREFIX)), {
      threshold: 262_144,
    }),
    result: name,
  });

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-mfs-engine-'));
  node = await startIpfsNode({ repo, port: 0 });
  upstream = { url: new URL(node.apiUrl), agent: new Agent({ keepAlive: true }), headers: {}, idleTimeoutMs: 30_000 };
  db = new PGlite();
  const query = ((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery;
  roots = await createSqlMfsRootStore(query);
  pins = withMfsRoots(await createSqlPinStore(query), roots);
});

afterAll(async () => {
  upstream?.agent.destroy();
  await db?.close();
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('createMfs', () => {
  it('changes of one key from two instances at once all land (compare-and-set, then again)', async () => {
    const key = randomBytes(8).toString('hex');
    const [one, two] = [instance(), instance()];
    const names = Array.from({ length: 12 }, (_, i) => `d${i}`);
    const results = await Promise.all(names.map((n, i) => (i % 2 ? one : two).change(key, mkdir(n))));
    expect(results).toEqual(names);
    const { root, version, size } = await one.current(key);
    expect(version).toBe(12);
    expect(size).toBeGreaterThan(0);
    const session = one.session();
    const listed: string[] = [];
    for await (const e of listEntries(session, await session.load(root))) listed.push(e.name);
    expect(listed.sort()).toEqual([...names].sort());
    // the node pins the last root only; the replaced ones were unpinned
    const pinned = await fetch(`${node.apiUrl}/api/v0/pin/ls?type=recursive`, { method: 'POST' });
    const keys = Object.keys(((await pinned.json()) as { Keys: Record<string, unknown> }).Keys);
    expect(keys).toContain(root.toString());
    expect(keys).toHaveLength(1);
  });

  it('a change refused by the quota leaves the root, and counts the blocks it stored as unpinned', async () => {
    const key = randomBytes(8).toString('hex');
    const small = instance(100);
    await expect(
      small.change(key, async (session, root) => {
        const leaf = session.makeRaw(randomBytes(5_000), { version: 1, codec: 0x55, hash: 0x12 });
        return {
          root: await editEntry(session, root, [], 'big', () => ({ name: 'big', cid: leaf, tsize: 5_000 }), {
            threshold: 262_144,
          }),
          result: undefined,
        };
      }),
    ).rejects.toMatchObject({ status: 413, code: 1 });
    expect(await roots.get(key)).toBeUndefined();
    expect(await pins.unpinnedBytes(key)).toBeGreaterThanOrEqual(5_000);
    // nothing of it stays pinned on the node
    expect((await small.current(key)).version).toBe(0);
  });

  it('a change whose result is the same root stores nothing and keeps the version', async () => {
    const key = randomBytes(8).toString('hex');
    const mfs = instance();
    await mfs.change(key, mkdir('a'));
    const before = await mfs.current(key);
    await mfs.change(key, async (_session, root) => ({ root, result: undefined }));
    expect(await mfs.current(key)).toEqual(before);
  });
});
