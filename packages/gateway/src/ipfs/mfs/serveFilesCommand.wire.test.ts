import { randomBytes } from 'node:crypto';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../startIpfsTestGateway.js';

// files/* through a real gateway in front of the embedded node, with kubo-rpc-client 7 and raw
// requests where the client does not go (chmod, touch, Kubo's exact errors and statuses).

let t: IpfsTestGateway;
let ipfs: KuboRPCClient;

const all = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const concat = (chunks: Uint8Array[]) => Buffer.concat(chunks);
const read = async (path: string, options = {}) => concat(await all(ipfs.files.read(path, options)));

/** A raw call, as Kubo's wire has it. */
async function call(command: string, args: string[], query: Record<string, string> = {}, body?: Uint8Array) {
  const q = new URLSearchParams(query);
  for (const a of args) q.append('arg', a);
  const init: RequestInit = { method: 'POST', headers: { authorization: t.authorization } };
  if (body !== undefined) {
    const form = new FormData();
    form.append('file', new Blob([body]), 'file');
    init.body = form;
  }
  const res = await fetch(`${t.ipfsUrl}/api/v0/${command}?${q}`, init);
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

beforeAll(async () => {
  t = await startIpfsTestGateway();
  ipfs = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: t.authorization } });
});
afterAll(async () => {
  await t?.stop();
});

describe('files/* as Kubo answers them', () => {
  it('a new key has the empty directory as its root', async () => {
    const k = await t.createKey();
    const client = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: k.authorization } });
    const stat = await client.files.stat('/');
    expect(stat.cid.toString()).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
    expect(stat).toMatchObject({ type: 'directory', size: 0, cumulativeSize: 4, blocks: 0 });
    expect(await all(client.files.ls('/'))).toEqual([]);
    expect((await client.files.flush('/')).toString()).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
  });

  it('write makes Kubo’s MFS file (a root over Raw-type leaves): Hello world is Qmetpc7…', async () => {
    await ipfs.files.write('/hello.txt', new TextEncoder().encode('Hello world'), { create: true });
    const listing = await all(ipfs.files.ls('/'));
    expect(listing).toEqual([
      expect.objectContaining({
        name: 'hello.txt',
        type: 'file',
        size: 11,
        cid: CID.parse('Qmetpc7cZmN25Wcc6R27cGCAvCDqCS5GjHG4v7xABEfpmJ'),
      }),
    ]);
    expect((await read('/hello.txt')).toString()).toBe('Hello world');
    const small = randomBytes(13);
    await ipfs.files.write('/stat/small', small, { create: true, parents: true });
    expect(await ipfs.files.stat('/stat/small')).toMatchObject({
      size: 13,
      cumulativeSize: 71,
      blocks: 1,
      type: 'file',
    });
    const large = randomBytes(490668);
    await ipfs.files.write('/stat/large', large, { create: true });
    expect(await ipfs.files.stat('/stat/large')).toMatchObject({
      size: 490668,
      cumulativeSize: 490800,
      blocks: 2,
      type: 'file',
    });
    expect((await read('/stat/large')).equals(large)).toBe(true);
  });

  it('write at offsets: overwrite in place, pad with zeros, append, truncate, count', async () => {
    const data = randomBytes(300_000);
    await ipfs.files.write('/w.bin', data, { create: true });
    await ipfs.files.write('/w.bin', Buffer.from('Goodbye world'));
    const after = await read('/w.bin');
    expect(after.length).toBe(300_000);
    expect(after.subarray(0, 13).toString()).toBe('Goodbye world');
    expect(after.subarray(13).equals(data.subarray(13))).toBe(true);

    await ipfs.files.write('/w.bin', Buffer.from('Oh hai!'), { offset: 300_005 });
    const grown = await read('/w.bin');
    expect(grown.length).toBe(300_012);
    expect(grown.subarray(300_000, 300_005).equals(Buffer.alloc(5))).toBe(true);
    expect(grown.subarray(300_005).toString()).toBe('Oh hai!');

    await ipfs.files.write('/w.bin', Buffer.from('abc'), { truncate: true });
    expect((await read('/w.bin')).toString()).toBe('abc');

    await ipfs.files.write('/pad.bin', Buffer.from('x'), { create: true, offset: 10 });
    expect((await read('/pad.bin')).equals(Buffer.concat([Buffer.alloc(10), Buffer.from('x')]))).toBe(true);

    await ipfs.files.write('/two.bin', Buffer.from('hello world'), { create: true, length: 2 });
    expect((await read('/two.bin')).toString()).toBe('he');
    await ipfs.files.write('/zero.bin', Buffer.from('foo'), { create: true, length: 0 });
    expect(await all(ipfs.files.ls('/zero.bin'))).toEqual([expect.objectContaining({ name: 'zero.bin', size: 0 })]);
  });

  it('read with offset and count, and Kubo’s refusals', async () => {
    const data = randomBytes(100);
    await ipfs.files.write('/r.bin', data, { create: true });
    expect((await read('/r.bin', { offset: 10 })).equals(data.subarray(10))).toBe(true);
    expect((await read('/r.bin', { length: 10 })).equals(data.subarray(0, 10))).toBe(true);
    expect((await read('/r.bin', { offset: 10, length: 10 })).equals(data.subarray(10, 20))).toBe(true);
    await expect(read('/')).rejects.toThrow(/not a file/);
    await expect(read('/nope')).rejects.toThrow(/does not exist/);
    const past = await call('files/read', ['/r.bin'], { offset: '101' });
    expect(past.status).toBe(500);
    expect(past.json()).toEqual({ Message: 'offset was past end of file (101 > 100)', Code: 0, Type: 'error' });
  });

  it('mkdir, cp (from /ipfs too), mv, rm as Kubo does them', async () => {
    await ipfs.files.mkdir('/d/e/f', { parents: true });
    await expect(ipfs.files.mkdir('/d/e/f')).rejects.toThrow(/already exists/);
    await ipfs.files.mkdir('/d/e/f', { parents: true });
    await expect(ipfs.files.mkdir('/x/y')).rejects.toThrow(/does not exist/);
    await expect(ipfs.files.mkdir('/')).rejects.toThrow(/Already exists/);
    await expect(ipfs.files.mkdir('rel')).rejects.toThrow(/leading slash/);

    const { cid } = await ipfs.add('copied content');
    await ipfs.files.cp(`/ipfs/${cid}`, '/d/copied.txt');
    expect((await read('/d/copied.txt')).toString()).toBe('copied content');
    await expect(ipfs.files.cp('/d/copied.txt', '/d/copied.txt')).rejects.toThrow(
      /directory already has entry by that name/,
    );
    // the empty directory needs no block on the node to be copied: the gateway stores it
    await ipfs.files.cp('/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn', '/d/empty');
    expect(await ipfs.files.stat('/d/empty')).toMatchObject({ type: 'directory', cumulativeSize: 4 });
    await ipfs.files.cp('/d/copied.txt', '/d/e/');
    expect((await read('/d/e/copied.txt')).toString()).toBe('copied content');

    await ipfs.files.mv('/d/copied.txt', '/d/e/f');
    expect((await read('/d/e/f/copied.txt')).toString()).toBe('copied content');
    await expect(ipfs.files.stat('/d/copied.txt')).rejects.toThrow(/does not exist/);
    await expect(ipfs.files.mv('/d', '/d/e/inside')).rejects.toThrow(/into itself/);

    await expect(ipfs.files.rm('/d')).rejects.toThrow(/use -r to remove directories/);
    await expect(ipfs.files.rm('/')).rejects.toThrow(/cannot delete root/);
    await ipfs.files.rm('/d', { recursive: true });
    await expect(ipfs.files.stat('/d')).rejects.toThrow(/does not exist/);
    const noFlush = await call('files/rm', ['/hello.txt'], { flush: 'false' });
    expect(noFlush.status).toBe(500);
    expect(noFlush.text).toMatch(/always flushes/);
  });

  it('mv renames within a directory, and replaces a file at the destination', async () => {
    await ipfs.files.write('/mv-a', Buffer.from('a'), { create: true });
    await ipfs.files.write('/mv-c', Buffer.from('c'), { create: true });
    await ipfs.files.mv('/mv-a', '/mv-b');
    expect((await read('/mv-b')).toString()).toBe('a');
    await expect(ipfs.files.stat('/mv-a')).rejects.toThrow(/does not exist/);
    await ipfs.files.mv('/mv-b', '/mv-c');
    expect((await read('/mv-c')).toString()).toBe('a');
    await expect(ipfs.files.stat('/mv-b')).rejects.toThrow(/does not exist/);
    const names = (await all(ipfs.files.ls('/'))).map((e) => e.name);
    expect(names.filter((n) => n.startsWith('mv-'))).toEqual(['mv-c']);
  });

  it('stat: with-local, /ipfs paths, CID versions and hash functions; flush and chcid', async () => {
    await ipfs.files.mkdir('/v0');
    await ipfs.files.mkdir('/v0/v1', { cidVersion: 1 });
    expect((await ipfs.files.stat('/v0')).cid.version).toBe(0);
    expect((await ipfs.files.stat('/v0/v1')).cid.version).toBe(1);
    await ipfs.files.write('/v0/sha512.bin', Buffer.from([0, 1, 2, 3]), { create: true, hashAlg: 'sha2-512' });
    const s = await ipfs.files.stat('/v0/sha512.bin');
    expect(s.cid.multihash.code).toBe(0x13);
    expect(Buffer.from(await read('/v0/sha512.bin'))).toEqual(Buffer.from([0, 1, 2, 3]));
    const local = await call('files/stat', ['/v0'], { 'with-local': 'true' });
    expect(local.json()).toMatchObject({ WithLocality: true, Local: true });
    const outside = await ipfs.files.stat(`/ipfs/${s.cid}`);
    expect(outside.cid.toString()).toBe(s.cid.toString());
    const text = await call('files/stat', ['/v0/sha512.bin'], { encoding: 'text' });
    expect(text.text).toBe(`${s.cid}\nSize: 4\nCumulativeSize: ${s.cumulativeSize}\nChildBlocks: 1\nType: file\n`);
    const hashOnly = await call('files/stat', ['/v0/sha512.bin'], { encoding: 'text', hash: 'true' });
    expect(hashOnly.text).toBe(`${s.cid}\n`);
    const formatted = await call('files/stat', ['/v0'], {
      encoding: 'text',
      format: '<type> <childs>',
      'with-local': 'true',
    });
    expect(formatted.text).toMatch(/^directory 2\nLocal: \d+ B of \d+ B \(100\.00%\)\n$/);
    const both = await call('files/stat', ['/v0'], { hash: 'true', size: 'true' });
    expect(both.status).toBe(400);
    const flushed = await call('files/flush', ['/v0']);
    expect(flushed.json()).toEqual({ Cid: (await ipfs.files.stat('/v0')).cid.toString() });
    await call('files/chcid', ['/v0'], { 'cid-version': '1' });
    expect((await ipfs.files.stat('/v0')).cid.version).toBe(1);
  });

  it('mode and mtime: write, mkdir, chmod, touch, and what stat shows', async () => {
    await ipfs.files.write('/m.txt', Buffer.from('x'), { create: true, mode: 0o321, mtime: { secs: 5n, nsecs: 0 } });
    expect(await ipfs.files.stat('/m.txt')).toMatchObject({ mode: 0o321, mtime: { secs: 5, nsecs: 0 } });
    await ipfs.files.mkdir('/md', { mode: 0o700, mtime: { secs: 7n, nsecs: 9 } });
    expect(await ipfs.files.stat('/md')).toMatchObject({ mode: 0o700, mtime: { secs: 7, nsecs: 9 } });
    expect((await call('files/chmod', ['0644', '/m.txt'])).status).toBe(200);
    expect((await ipfs.files.stat('/m.txt')).mode).toBe(0o644);
    expect((await call('files/chmod', ['+x', '/m.txt'])).status).toBe(500);
    expect((await call('files/touch', ['/m.txt'], { mtime: '1630937926', 'mtime-nsecs': '55567' })).status).toBe(200);
    expect((await ipfs.files.stat('/m.txt')).mtime).toEqual({ secs: 1630937926, nsecs: 55567 });
    const before = Math.floor(Date.now() / 1000);
    await call('files/touch', ['/md']);
    expect((await ipfs.files.stat('/md')).mtime?.secs).toBeGreaterThanOrEqual(before);
    expect((await call('files/touch', ['/missing'])).text).toMatch(/does not exist/);
    expect((await read('/m.txt')).toString()).toBe('x');
    // a copy is the same node: its metadata comes along, inside MFS and from /ipfs
    await ipfs.files.cp('/m.txt', '/m-copy.txt');
    await ipfs.files.cp(`/ipfs/${(await ipfs.files.stat('/md')).cid}`, '/md-copy');
    expect(await ipfs.files.stat('/m-copy.txt')).toMatchObject({
      mode: 0o644,
      mtime: { secs: 1630937926, nsecs: 55567 },
    });
    expect((await ipfs.files.stat('/md-copy')).mode).toBe(0o700);
    // mode is read as Kubo reads a number (0644 octal, 420 decimal); 0 stores none
    expect((await call('files/write', ['/dec.txt'], { create: 'true', mode: '420' }, Buffer.from('d'))).status).toBe(
      200,
    );
    expect((await ipfs.files.stat('/dec.txt')).mode).toBe(0o644);
    expect((await call('files/mkdir', ['/nomode'], { mode: '0' })).status).toBe(200);
    expect((await ipfs.files.stat('/nomode')).mode).toBeUndefined();
  });

  it('concurrent writes of one key keep every file', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `file-${i}.txt`);
    await Promise.all(
      names.map((n) => ipfs.files.write(`/concurrent/${n}`, randomBytes(100), { create: true, parents: true })),
    );
    expect((await all(ipfs.files.ls('/concurrent'))).map((e) => e.name).sort()).toEqual([...names].sort());
  });
});
