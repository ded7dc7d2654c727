import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import { CIDV0_PREFIX } from './blockPrefix.js';
import { ByteReader } from './ByteReader.js';
import { type MfsNode, MfsSession } from './MfsSession.js';
import { decodeUnixfs, UnixfsType } from './unixfsData.js';
import { emptyFile, type FileWriteOptions, writeFileData } from './writeFileData.js';

// The file DAGs files/write makes, read back from a real node: Kubo's trickle layout over 256 KiB
// leaves, in-place overwrites that keep the shape, zero gaps, raw leaves and CID versions.

let node: IpfsNode;
let repo: string;
let upstream: IpfsUpstream;

const CHUNK = 262_144;
const options = (o: Partial<FileWriteOptions> = {}): FileWriteOptions => ({
  offset: 0,
  truncate: false,
  maxGap: 1 << 30,
  ...o,
});
const bytesOf = async function* (...chunks: Uint8Array[]) {
  for (const c of chunks) yield c;
};

/** Writes, stores what the new file reaches, and reads the file back with the node's `cat`. */
async function write(file: MfsNode | undefined, data: Uint8Array, o: Partial<FileWriteOptions> = {}) {
  const session = new MfsSession(upstream);
  const base = file ?? emptyFile(session, CIDV0_PREFIX);
  const out = await writeFileData(session, base, new ByteReader(bytesOf(data)), options(o));
  await session.storeReachable(out.cid);
  const res = await fetch(`${node.apiUrl}/api/v0/cat?arg=${out.cid}`, { method: 'POST' });
  return { node: out, content: Buffer.from(await res.arrayBuffer()), session };
}

const links = (n: MfsNode) => n.pb?.Links ?? [];

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-mfs-write-'));
  node = await startIpfsNode({ repo, port: 0 });
  upstream = { url: new URL(node.apiUrl), agent: new Agent({ keepAlive: true }), headers: {}, idleTimeoutMs: 30_000 };
});

afterAll(async () => {
  upstream?.agent.destroy();
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('writeFileData', () => {
  it('a new file is a trickle DAG: up to 174 leaves under the root, then sub-trees of growing depth', async () => {
    // zeros: 181 leaves, one block on the node (they deduplicate), 45 MiB read back
    const data = Buffer.alloc(180 * CHUNK + 5);
    data.set(randomBytes(5), 180 * CHUNK);
    const { node: root, content, session } = await write(undefined, data);
    expect(content.equals(data)).toBe(true);
    // 181 leaves: 174 under the root, then one depth-1 sub-tree holding the 7 others
    expect(links(root)).toHaveLength(175);
    const sub = await session.load(links(root)[174]!.Hash);
    expect(links(sub)).toHaveLength(7);
    const leaf = await session.load(links(root)[0]!.Hash);
    expect(leaf.unixfs?.type).toBe(UnixfsType.raw);
    expect(decodeUnixfs(root.pb!.Data!).blocksizes.at(-1)).toBe(BigInt(6 * CHUNK + 5));
  });

  it('an overwrite inside the file keeps its shape and rewrites only the leaves it touches', async () => {
    const data = randomBytes(3 * CHUNK);
    const first = await write(undefined, data);
    const patch = randomBytes(100);
    const second = await write(first.node, patch, { offset: CHUNK + 10 });
    const expected = Buffer.from(data);
    expected.set(patch, CHUNK + 10);
    expect(second.content.equals(expected)).toBe(true);
    const [a, b] = [links(first.node), links(second.node)];
    expect(b).toHaveLength(3);
    expect(b[0]!.Hash.equals(a[0]!.Hash)).toBe(true);
    expect(b[1]!.Hash.equals(a[1]!.Hash)).toBe(false);
    expect(b[2]!.Hash.equals(a[2]!.Hash)).toBe(true);
  });

  it('a write past the end fills the gap with zeros, 4 KiB leaves as Kubo (bounded by maxGap)', async () => {
    const first = await write(undefined, Buffer.from('start'));
    const second = await write(first.node, Buffer.from('end'), { offset: 10_005 });
    expect(second.content.equals(Buffer.concat([Buffer.from('start'), Buffer.alloc(10_000), Buffer.from('end')]))).toBe(
      true,
    );
    // the first leaf, three zero leaves (4096, 4096, 1808) and the new data
    expect(decodeUnixfs(second.node.pb!.Data!).blocksizes).toEqual([5n, 4096n, 4096n, 1808n, 3n]);
    await expect(write(first.node, Buffer.from('x'), { offset: 5 + 1001, maxGap: 1000 })).rejects.toThrow(
      /past the end of the file: at most 1000/,
    );
  });

  it('raw leaves, CID version 1, truncate; nothing written keeps the file', async () => {
    const v1 = { version: 1 as const, codec: 0x70, hash: 0x12 };
    const session = new MfsSession(upstream);
    const base = emptyFile(session, v1);
    const data = randomBytes(CHUNK + 1);
    const out = await writeFileData(session, base, new ByteReader(bytesOf(data)), options());
    expect(out.cid.version).toBe(1);
    expect(links(out).every((l) => (l.Hash as CID).code === raw.code)).toBe(true);
    const truncated = await write(out, Buffer.from('short'), { truncate: true });
    expect(truncated.content.toString()).toBe('short');
    const same = await writeFileData(session, out, new ByteReader(bytesOf()), options());
    expect(same.cid.equals(out.cid)).toBe(true);
  });
});
