import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { createFileCache, type FileCache } from './createFileCache.js';

const RAW = 0x55;
const fileCid = async (seed: string) => CID.createV1(dagPb.code, await sha256.digest(new TextEncoder().encode(seed)));

/** Streams `bytes` into the cache in chunks of `chunk` bytes through one reused buffer, as a read does. */
function readInto(cache: FileCache, cid: CID, bytes: Uint8Array, chunk: number, size = bytes.byteLength): boolean {
  const c = cache.collect(cid, size);
  if (c === undefined) return false;
  const reused = new Uint8Array(chunk);
  for (let at = 0; at < bytes.byteLength; at += chunk) {
    const piece = bytes.subarray(at, at + chunk);
    reused.set(piece);
    c.add(reused.subarray(0, piece.byteLength));
    reused.fill(0xee); // the buffer takes the next read: what was kept must be a copy
  }
  c.done();
  return true;
}

const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

describe('createFileCache', () => {
  it('keeps a whole read (copied out of reused buffers) under its CID, v0 and v1 alike', async () => {
    const cache = createFileCache({ maxBytes: 10_000, maxFileBytes: 5_000 });
    const cid = await fileCid('a');
    const bytes = bytesOf(4_000, 1);
    expect(cache.get(cid)).toBeUndefined();
    expect(readInto(cache, cid, bytes, 1_000)).toBe(true);
    expect(Buffer.from(cache.get(cid)!).equals(bytes)).toBe(true);
    expect(Buffer.from(cache.get(cid.toV0())!).equals(bytes)).toBe(true);
    expect(cache.bytes).toBe(4_000);
    // a raw block of the same multihash is another thing: not this file
    expect(cache.get(CID.createV1(RAW, cid.multihash))).toBeUndefined();
  });

  it('keeps nothing of a read that was cut, that brought more than the file, or never finished', async () => {
    const cache = createFileCache({ maxBytes: 10_000, maxFileBytes: 5_000 });
    const short = await fileCid('short');
    readInto(cache, short, bytesOf(3_000, 2), 1_000, 4_000);
    expect(cache.get(short)).toBeUndefined();
    const long = await fileCid('long');
    readInto(cache, long, bytesOf(5_000, 3), 1_000, 4_000);
    expect(cache.get(long)).toBeUndefined();
    const open = await fileCid('open');
    const c = cache.collect(open, 10)!;
    c.add(bytesOf(10, 4)); // all bytes, but the read never ended cleanly (no done)
    expect(cache.get(open)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('takes no file over maxFileBytes (nor any when maxBytes is 0), and no empty one', async () => {
    expect(
      createFileCache({ maxBytes: 10_000, maxFileBytes: 5_000 }).collect(await fileCid('big'), 5_001),
    ).toBeUndefined();
    expect(createFileCache({ maxBytes: 0, maxFileBytes: 5_000 }).collect(await fileCid('off'), 10)).toBeUndefined();
    expect(
      createFileCache({ maxBytes: 10_000, maxFileBytes: 5_000 }).collect(await fileCid('empty'), 0),
    ).toBeUndefined();
  });

  it('holds at most maxBytes, the least recently read going first', async () => {
    const cache = createFileCache({ maxBytes: 10_000, maxFileBytes: 5_000 });
    const [a, b, c] = [await fileCid('1'), await fileCid('2'), await fileCid('3')];
    readInto(cache, a, bytesOf(4_000, 5), 512);
    readInto(cache, b, bytesOf(4_000, 6), 512);
    cache.get(a); // a is read again: b is now the oldest
    readInto(cache, c, bytesOf(4_000, 7), 512);
    expect(cache.bytes).toBe(8_000);
    expect(cache.get(b)).toBeUndefined();
    expect(cache.get(a)).toBeDefined();
    expect(cache.get(c)).toBeDefined();
  });
});
