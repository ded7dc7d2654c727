import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startIpfsNode } from '../embedded/startIpfsNode.js';
import { DEFAULT_IPFS_ALLOW } from '../ipfs/ipfsCommands.js';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { admin } from '../test-support/testKeys.js';

// Issue 23: MFS (files/*) per key. A real gateway in front of a real node (started here, so the
// test can look at the node's blocks and pins directly), several keys, kubo-rpc-client 7: each
// key sees its own MFS tree only, the tree counts in the key's stored bytes and survives the
// node's collection, concurrent changes of one key keep each other's work.

const QUOTA = 1_000_000;
const EMPTY_DIR = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
let repo: string;
let node: EmbeddedProcess;
let t: IpfsTestGateway;

interface Key {
  key: string;
  authorization: string;
  client: KuboRPCClient;
}

async function newKey(): Promise<Key> {
  const k = await t.createKey();
  return {
    key: k.key,
    authorization: k.authorization,
    client: create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: k.authorization } }),
  };
}

/** The node's own API, bypassing the gateway (what is really stored and pinned). */
async function onNode(command: string, query: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${node.http}/api/v0/${command}?${new URLSearchParams(query)}`, { method: 'POST' });
  return { status: res.status, text: await res.text() };
}

/** A raw gateway call of `key` (status and Kubo's JSON). */
async function call(key: Key, command: string, args: string[], body?: Uint8Array) {
  const q = new URLSearchParams();
  for (const a of args) q.append('arg', a);
  const init: RequestInit = { method: 'POST', headers: { authorization: key.authorization } };
  if (body !== undefined) {
    const form = new FormData();
    form.append('file', new Blob([body]), 'file');
    init.body = form;
  }
  const res = await fetch(`${t.ipfsUrl}/api/v0/${command}?${q}`, init);
  return { status: res.status, text: await res.text() };
}

const storedBytes = async (key: string): Promise<number> =>
  (await admin(t.gw, 'GET', `/keys/${key}/storage`)).storedBytes as number;

const all = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
};
const read = async (k: Key, path: string) => Buffer.concat(await all(k.client.files.read(path)));

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-mfs-repo-'));
  node = await startIpfsNode({ repo });
  t = await startIpfsTestGateway({
    upstreamUrl: node.http,
    // collections run when the test asks; the gateway's records decide what the node keeps
    ipfs: {
      allow: [...DEFAULT_IPFS_ALLOW, 'repo/gc'],
      maxStoredBytesPerKey: QUOTA,
      gc: { intervalMs: 0, unpinUnowned: true },
    },
  });
});

afterAll(async () => {
  await t?.stop();
  await node?.stop();
  await rm(repo, { recursive: true, force: true });
});

describe('each key sees its own MFS, never another key’s', () => {
  it('B never sees, reads, copies from or changes A’s tree, whatever path it sends', async () => {
    const [a, b] = [await newKey(), await newKey()];
    await a.client.files.write('/secret/a.txt', Buffer.from('only for A'), { create: true, parents: true });
    const aRoot = (await a.client.files.stat('/')).cid.toString();
    expect(aRoot).not.toBe(EMPTY_DIR);

    expect((await b.client.files.stat('/')).cid.toString()).toBe(EMPTY_DIR);
    expect(await all(b.client.files.ls('/'))).toEqual([]);
    await expect(b.client.files.stat('/secret')).rejects.toThrow(/does not exist/);
    await expect(read(b, '/secret/a.txt')).rejects.toThrow(/does not exist/);
    await expect(read(b, '/../secret/a.txt')).rejects.toThrow(/does not exist/);
    await expect(b.client.files.cp('/secret/a.txt', '/mine.txt')).rejects.toThrow(/does not exist/);
    await expect(b.client.files.rm('/secret', { recursive: true })).rejects.toThrow(/does not exist/);
    await expect(b.client.files.mv('/secret/a.txt', '/stolen.txt')).rejects.toThrow(/does not exist/);

    // B's own /secret is a directory of its own: A's is untouched
    await b.client.files.mkdir('/secret');
    await b.client.files.write('/secret/a.txt', Buffer.from('B wrote this'), { create: true });
    expect((await read(a, '/secret/a.txt')).toString()).toBe('only for A');
    expect((await read(b, '/secret/a.txt')).toString()).toBe('B wrote this');
    expect((await a.client.files.stat('/')).cid.toString()).toBe(aRoot);
    // B's root is pinned on the node as well: both roots are kept
    for (const root of [aRoot, (await b.client.files.stat('/')).cid.toString()]) {
      expect((await onNode('pin/ls', { arg: root, type: 'recursive' })).status).toBe(200);
    }
    // a key never sees another key's MFS root among its pins
    expect(await all(b.client.pin.ls())).toEqual([]);
  });

  it('refs/local lists a key’s own MFS blocks, never another key’s', async () => {
    const [a, b] = [await newKey(), await newKey()];
    await a.client.files.write('/refs/r.txt', Buffer.from('only A stores this'), { create: true, parents: true });
    const file = (await a.client.files.stat('/refs/r.txt')).cid;
    const multihashes = async (k: Key) =>
      (await all(k.client.refs.local())).map((r) => Buffer.from(CID.parse(r.ref).multihash.bytes).toString('hex'));
    const mine = Buffer.from(file.multihash.bytes).toString('hex');
    expect(await multihashes(a)).toContain(mine);
    expect(await multihashes(b)).not.toContain(mine);
    // repo/stat counts the key's own objects: B has none yet
    const objects = async (k: Key) => Number((await k.client.repo.stat()).numObjects);
    expect(await objects(b)).toBe(0);
    expect(await objects(a)).toBe((await multihashes(a)).length);
    // once B copies it into its own MFS, B stores it too
    await b.client.files.cp(`/ipfs/${file}`, '/r.txt');
    expect(await multihashes(b)).toContain(mine);
    expect(await objects(b)).toBe((await multihashes(b)).length);
  });

  it('refs/local and repo/stat list what a key’s own pins keep: never another key’s pins or uploads, shared blocks for both', async () => {
    const [a, b] = [await newKey(), await newKey()];
    const hex = (cid: string) => Buffer.from(CID.parse(cid).multihash.bytes).toString('hex');
    const local = async (k: Key) => new Set((await all(k.client.refs.local())).map((r) => hex(r.ref)));
    const objects = async (k: Key) => Number((await k.client.repo.stat()).numObjects);
    // a pinned file of two 256 KiB leaves and a root, and an unpinned upload
    const pinned = (await a.client.add(randomBytes(300_000))).cid.toString();
    const unpinned = (await a.client.add(randomBytes(1_000), { pin: false })).cid.toString();
    const below = (await onNode('refs', { arg: pinned, recursive: 'true' })).text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { Ref: string }).Ref);
    const blocks = [pinned, ...below].map(hex);
    expect(blocks).toHaveLength(3);

    const ofA = await local(a);
    for (const block of blocks) expect(ofA.has(block)).toBe(true);
    // an upload no pin keeps is not the key's (it goes at the next collection)
    expect(ofA.has(hex(unpinned))).toBe(false);
    expect(await objects(a)).toBe(ofA.size);
    // B stores nothing: nothing of A's shows, not even the node's total
    expect((await local(b)).size).toBe(0);
    expect(await b.client.repo.stat()).toMatchObject({ numObjects: 0n, repoSize: 0n, repoPath: '' });

    // B pins the same content: the blocks are B's too, for as long as B pins them
    await b.client.pin.add(CID.parse(pinned));
    expect(await local(b)).toEqual(new Set(blocks));
    expect(await objects(b)).toBe(3);
    await b.client.pin.rm(CID.parse(pinned));
    expect((await local(b)).size).toBe(0);
    // A's are untouched by B's pin and unpin
    expect(await local(a)).toEqual(ofA);
  });

  it('cp /ipfs/<cid> follows the rule of reads: any content the node has, even another key’s unpinned upload', async () => {
    const [a, b] = [await newKey(), await newKey()];
    await t.gw.collectIpfsGarbage!();
    const kept = randomBytes(200_000);
    const dropped = randomBytes(150_000);
    const { cid: keptCid } = await a.client.add(kept, { pin: false });
    const { cid: droppedCid } = await a.client.add(dropped, { pin: false });
    // B may read A's unpinned content as `cat` does, and so may copy it into its own MFS
    expect(Buffer.concat(await all(b.client.cat(keptCid))).equals(kept)).toBe(true);
    const before = await storedBytes(b.key);
    await b.client.files.cp(`/ipfs/${keptCid}`, '/copied.bin');
    expect(await storedBytes(b.key)).toBeGreaterThanOrEqual(before + 200_000);

    // the collection forgets A's unpinned uploads; B's MFS keeps what it copied
    await t.gw.collectIpfsGarbage!();
    expect(await storedBytes(a.key)).toBe(0);
    expect((await read(b, '/copied.bin')).equals(kept)).toBe(true);
    expect((await onNode('block/stat', { arg: keptCid.toString() })).status).toBe(200);
    // what nobody kept is gone: neither `cat` nor `files/cp` find it any more
    expect((await onNode('block/stat', { arg: droppedCid.toString() })).status).toBe(500);
    await expect(b.client.files.cp(`/ipfs/${droppedCid}`, '/late.bin')).rejects.toThrow();
    await expect(all(b.client.cat(droppedCid))).rejects.toThrow();
  });
});

describe('the MFS tree counts in the key’s stored bytes and survives collections', () => {
  it('a file written to MFS survives repo/gc, and its blocks stay on the node', async () => {
    const a = await newKey();
    const data = randomBytes(300_000);
    await a.client.files.write('/keep/data.bin', data, { create: true, parents: true });
    const fileCid = (await a.client.files.stat('/keep/data.bin')).cid.toString();
    // the key's own repo/gc, then the gateway's scheduled collection
    await all(a.client.repo.gc());
    expect((await read(a, '/keep/data.bin')).equals(data)).toBe(true);
    const report = await t.gw.collectIpfsGarbage!();
    expect(report.removedBlocks).toBeGreaterThanOrEqual(0);
    expect((await read(a, '/keep/data.bin')).equals(data)).toBe(true);
    expect((await onNode('block/stat', { arg: fileCid })).status).toBe(200);
    // the stored size is the tree's blocks, once each
    const stored = await storedBytes(a.key);
    expect(stored).toBeGreaterThanOrEqual(300_000);
    expect(stored).toBeLessThan(310_000);
  });

  it('a change replaces the pinned root on the node; what it left behind counts until collected', async () => {
    const a = await newKey();
    await a.client.files.write('/f.bin', randomBytes(200_000), { create: true });
    const first = (await a.client.files.stat('/')).cid.toString();
    await a.client.files.write('/f.bin', randomBytes(200_000), { truncate: true });
    const second = (await a.client.files.stat('/')).cid.toString();
    expect(second).not.toBe(first);
    expect((await onNode('pin/ls', { arg: second, type: 'recursive' })).status).toBe(200);
    expect((await onNode('pin/ls', { arg: first, type: 'recursive' })).status).toBe(500);
    // the first version's 200 KB are still on the node until the collection: counted meanwhile
    expect(await storedBytes(a.key)).toBeGreaterThanOrEqual(400_000);
    await t.gw.collectIpfsGarbage!();
    const after = await storedBytes(a.key);
    expect(after).toBeGreaterThanOrEqual(200_000);
    expect(after).toBeLessThan(210_000);
    await a.client.files.rm('/f.bin');
    await t.gw.collectIpfsGarbage!();
    expect(await storedBytes(a.key)).toBeLessThan(1_000);
  });

  it('writing past the quota is refused with Kubo’s error shape, and the tree is unchanged', async () => {
    const a = await newKey();
    await a.client.files.write('/one.bin', randomBytes(600_000), { create: true });
    const root = (await a.client.files.stat('/')).cid.toString();
    const refused = await call(a, 'files/write', ['/two.bin'], randomBytes(600_000)).then((r) => ({
      status: r.status,
      body: JSON.parse(r.text) as unknown,
    }));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      Message: expect.stringMatching(/^storage limit reached: this API key has stored \d+ of 1000000 bytes allowed$/),
      Code: 1,
      Type: 'error',
    });
    await expect(a.client.files.write('/two.bin', randomBytes(600_000), { create: true })).rejects.toThrow(
      /^storage limit reached/,
    );
    expect((await a.client.files.stat('/')).cid.toString()).toBe(root);
    expect((await all(a.client.files.ls('/'))).map((e) => e.name)).toEqual(['one.bin']);
    expect(await storedBytes(a.key)).toBeLessThanOrEqual(QUOTA);
  });

  it('copying content that does not fit is refused before the root changes', async () => {
    const [a, b] = [await newKey(), await newKey()];
    const { cid } = await a.client.add(randomBytes(500_000));
    await b.client.files.write('/big.bin', randomBytes(600_000), { create: true });
    const root = (await b.client.files.stat('/')).cid.toString();
    const refused = await call(b, 'files/cp', [`/ipfs/${cid}`, '/copy.bin']);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toEqual({
      Message: expect.stringMatching(/^storage limit reached: .*; pinning this needs \d+ more$/),
      Code: 1,
      Type: 'error',
    });
    expect((await b.client.files.stat('/')).cid.toString()).toBe(root);
    // a change that shrinks the tree is never refused; what it removed counts until collected
    await b.client.files.rm('/big.bin');
    await expect(b.client.files.cp(`/ipfs/${cid}`, '/copy.bin')).rejects.toThrow(/^storage limit reached/);
    await t.gw.collectIpfsGarbage!();
    await b.client.files.cp(`/ipfs/${cid}`, '/copy.bin');
    expect(await storedBytes(b.key)).toBeGreaterThanOrEqual(500_000);
  });
});

describe('concurrent changes of one key keep each other', () => {
  it('20 parallel writes and mkdirs of one key all land', async () => {
    const a = await newKey();
    const names = Array.from({ length: 10 }, (_, i) => `file-${i}`);
    await Promise.all([
      ...names.map((n) => a.client.files.write(`/many/${n}`, randomBytes(1000), { create: true, parents: true })),
      ...names.map((n) => a.client.files.mkdir(`/dirs/${n}`, { parents: true })),
    ]);
    expect((await all(a.client.files.ls('/many'))).map((e) => e.name).sort()).toEqual([...names].sort());
    expect((await all(a.client.files.ls('/dirs'))).map((e) => e.name).sort()).toEqual([...names].sort());
  });

  it('two keys writing at once do not slow or change each other', async () => {
    const [a, b] = [await newKey(), await newKey()];
    await Promise.all([
      ...[0, 1, 2, 3].map((i) => a.client.files.write(`/a-${i}`, Buffer.from(`a${i}`), { create: true })),
      ...[0, 1, 2, 3].map((i) => b.client.files.write(`/b-${i}`, Buffer.from(`b${i}`), { create: true })),
    ]);
    expect((await all(a.client.files.ls('/'))).map((e) => e.name).sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
    expect((await all(b.client.files.ls('/'))).map((e) => e.name).sort()).toEqual(['b-0', 'b-1', 'b-2', 'b-3']);
  });
});
