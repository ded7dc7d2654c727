import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import { CIDV0_PREFIX } from './blockPrefix.js';
import type { DirLink } from './DirLink.js';
import { setEntry } from './directoryEntries.js';
import { buildHamtDirectory, findHamtEntry, listHamtEntries, setHamtEntry } from './hamtDirectory.js';
import { MfsSession } from './MfsSession.js';

// The HAMT directories MFS writes are the ones the importer writes for the same names: compared
// with the embedded node's `add` of a directory (sharding every directory, as Kubo does with
// Internal.UnixFSShardingSizeThreshold=1B), CID for CID, for a build, an insert and a removal.

let node: IpfsNode;
let repo: string;
let client: KuboRPCClient;
let upstream: IpfsUpstream;

/** The CID of a directory of `count` small files (file-0…), as the node adds it. */
async function addDirectory(count: number, skip?: number): Promise<CID> {
  const files = Array.from({ length: count }, (_, i) => i)
    .filter((i) => i !== skip)
    .map((i) => ({ path: `dir/file-${i}`, content: Uint8Array.from([0, 1, 2, 3, i & 0xff]) }));
  let root: CID | undefined;
  for await (const r of client.addAll(files, { pin: false })) if (r.path === 'dir') root = r.cid;
  if (root === undefined) throw new Error('no directory in the answer');
  return root;
}

const entriesOf = async (session: MfsSession, cid: CID): Promise<DirLink[]> => {
  const out: DirLink[] = [];
  for await (const e of listHamtEntries(session, await session.load(cid))) out.push(e);
  return out;
};

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-hamt-'));
  node = await startIpfsNode({ repo, port: 0, shardingThresholdBytes: 1 });
  client = create({ url: `${node.apiUrl}/api/v0` });
  upstream = { url: new URL(node.apiUrl), agent: new Agent({ keepAlive: true }), headers: {}, idleTimeoutMs: 30_000 };
});

afterAll(async () => {
  upstream?.agent.destroy();
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('HAMT directories as the importer lays them out', () => {
  it('building from the entries gives the importer’s CID (one level, and with sub-shards)', async () => {
    for (const count of [5, 600]) {
      const imported = await addDirectory(count);
      const session = new MfsSession(upstream);
      const entries = await entriesOf(session, imported);
      expect(entries).toHaveLength(count);
      const built = buildHamtDirectory(session, entries, CIDV0_PREFIX, {});
      expect(built.cid.toString()).toBe(imported.toString());
    }
  });

  it('inserting an entry, and removing one, give what the importer makes of the new set', async () => {
    const count = 300;
    const full = await addDirectory(count);
    const without = await addDirectory(count, 123);
    const session = new MfsSession(upstream);
    const missing = (await entriesOf(session, full)).find((e) => e.name === 'file-123')!;
    expect(await findHamtEntry(session, await session.load(without), 'file-123')).toBeUndefined();

    const inserted = await setHamtEntry(session, await session.load(without), 'file-123', missing);
    expect(inserted.node.cid.toString()).toBe(full.toString());
    const removed = await setHamtEntry(session, await session.load(full), 'file-123', undefined);
    expect(removed).toMatchObject({ found: true });
    expect(removed.node.cid.toString()).toBe(without.toString());
    expect((await setHamtEntry(session, await session.load(full), 'no-such-file', undefined)).found).toBe(false);
    expect((await findHamtEntry(session, await session.load(full), 'file-123'))?.cid.toString()).toBe(
      missing.cid.toString(),
    );
  });

  it('a plain directory reaching the threshold becomes sharded, and goes back below it on a removal', async () => {
    const imported = await addDirectory(40);
    const session = new MfsSession(upstream);
    const entries = await entriesOf(session, imported);
    // 40 entries of "file-N" and a 34-byte CID: about 1,650 bytes of estimate
    let dir = buildPlain(session, entries.slice(0, 39));
    dir = (await setEntry(session, dir, entries[39]!.name, entries[39], 1_000)).node;
    expect(dir.kind).toBe('hamt');
    expect(dir.cid.toString()).toBe(imported.toString());
    const plain = (await setEntry(session, dir, entries[39]!.name, undefined, 1_800)).node;
    expect(plain.kind).toBe('directory');
    expect(plain.pb?.Links.map((l) => l.Name)).toEqual(
      entries
        .slice(0, 39)
        .map((e) => e.name)
        .sort(),
    );
    // above the threshold after the removal: still sharded
    expect((await setEntry(session, dir, entries[39]!.name, undefined, 1_000)).node.kind).toBe('hamt');
  });
});

/** A plain directory of `entries`. */
function buildPlain(session: MfsSession, entries: readonly DirLink[]) {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const links = sorted.map((e) => ({ Hash: e.cid, Name: e.name, Tsize: e.tsize }));
  return session.makeNode({ Data: Uint8Array.of(0x08, 0x01), Links: links }, CIDV0_PREFIX);
}
