import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../startIpfsTestGateway.js';
import { decodeUnixfs, UnixfsType } from './unixfsData.js';

// MFS over HAMT-sharded directories, through the gateway: the node behind it shards every
// directory it imports (Kubo's Internal.UnixFSShardingSizeThreshold=1B), so a directory copied in
// from /ipfs is sharded, and MFS must find, list, read, add and remove entries in it as Kubo does
// (the suite's "with sharding" tests, which need that node setting).

let node: IpfsNode;
let repo: string;
let t: IpfsTestGateway;
let ipfs: KuboRPCClient;

const all = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
};

/** A directory of `names` (each file holding its name), as the node adds it. */
async function addDirectory(names: readonly string[]): Promise<CID> {
  const files = names.map((n) => ({ path: `dir/${n}`, content: new TextEncoder().encode(n) }));
  let root: CID | undefined;
  for await (const r of ipfs.addAll(files, { pin: false })) if (r.path === 'dir') root = r.cid;
  if (root === undefined) throw new Error('no directory in the answer');
  return root;
}

async function isShard(path: string): Promise<boolean> {
  const { cid } = await ipfs.files.stat(path);
  const block = await ipfs.block.get(cid);
  return decodeUnixfs(dagPb.decode(block).Data!).type === UnixfsType.hamtShard;
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-mfs-shard-'));
  node = await startIpfsNode({ repo, port: 0, shardingThresholdBytes: 1 });
  t = await startIpfsTestGateway({ upstreamUrl: node.apiUrl });
  ipfs = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: t.authorization } });
});

afterAll(async () => {
  await t?.stop();
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('files/* in a sharded directory', () => {
  const names = Array.from({ length: 300 }, (_, i) => `file-${i}`);

  it('adding an entry gives the CID the importer gives the same entries; ls, stat and read find it', async () => {
    const some = await addDirectory(names.slice(0, -1));
    const every = await addDirectory(names);
    await ipfs.files.cp(`/ipfs/${some}`, '/sharded');
    expect(await isShard('/sharded')).toBe(true);
    // the same file as the import's (a write would lay it out as MFS does: a root over a leaf)
    const { cid: file } = await ipfs.add(new TextEncoder().encode('file-299'), { pin: false });
    await ipfs.files.cp(`/ipfs/${file}`, '/sharded/file-299');
    expect((await ipfs.files.stat('/sharded')).cid.toString()).toBe(every.toString());
    expect(await isShard('/sharded')).toBe(true);
    const listing = await all(ipfs.files.ls('/sharded'));
    expect(listing.map((e) => e.name).sort()).toEqual([...names].sort());
    expect(listing.every((e) => e.type === 'file' && e.size === e.name.length)).toBe(true);
    expect(Buffer.concat(await all(ipfs.files.read('/sharded/file-17'))).toString()).toBe('file-17');
    expect(await ipfs.files.stat('/sharded/file-17')).toMatchObject({ type: 'file', size: 7 });
    expect(await ipfs.files.stat('/sharded')).toMatchObject({ type: 'directory', size: 0 });
  });

  it('overwriting, making a directory in, moving out of and removing from a sharded directory', async () => {
    await ipfs.files.write('/sharded/file-5', Uint8Array.from([3, 2, 1, 0]), { create: true, truncate: true });
    expect([...Buffer.concat(await all(ipfs.files.read('/sharded/file-5')))]).toEqual([3, 2, 1, 0]);
    await ipfs.files.mkdir('/sharded/subdir');
    expect(await isShard('/sharded/subdir')).toBe(false);
    expect(await ipfs.files.stat('/sharded/subdir')).toMatchObject({ type: 'directory' });
    await ipfs.files.mkdir('/plain');
    await ipfs.files.mv('/sharded/file-9', '/plain/file-9');
    expect(Buffer.concat(await all(ipfs.files.read('/plain/file-9'))).toString()).toBe('file-9');
    await expect(ipfs.files.stat('/sharded/file-9')).rejects.toThrow(/does not exist/);
    await ipfs.files.rm('/sharded/file-10');
    await expect(ipfs.files.stat('/sharded/file-10')).rejects.toThrow(/does not exist/);
    // 297 entries of about 42 bytes stay under 256 KiB: as Kubo, the removal makes it a plain directory again
    expect(await isShard('/sharded')).toBe(false);
    expect((await all(ipfs.files.ls('/sharded'))).length).toBe(299);
    await ipfs.files.rm('/sharded', { recursive: true });
    await expect(ipfs.files.stat('/sharded')).rejects.toThrow(/does not exist/);
  });
});
