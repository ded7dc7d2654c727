import { describe, expect, it } from 'vitest';
import { compressFelts } from './compressFelts.js';
import { FIELD_PRIME } from './constants.js';
import { decompressFelts } from './decompressFelts.js';
import { wordsPerFelt } from './wordsPerFelt.js';

describe('wordsPerFelt', () => {
  it('packs 31 words of a 256-entry code book and 27 of a 512-entry one', () => {
    expect(wordsPerFelt(256)).toBe(31);
    expect(wordsPerFelt(512)).toBe(27);
    expect(wordsPerFelt(1024)).toBe(25);
  });
});

describe('compressFelts', () => {
  it('writes code size, padding to 256, the code book in first-seen order, the count and the packed indices', () => {
    const out = compressFelts([7n, 5n, 7n, 9n]);
    // code: 7→0, 5→1, 9→2; packed least significant first: 0 + 1·256 + 0·256² + 2·256³
    expect(out).toEqual([3n, 253n, 7n, 5n, 9n, 4n, 1n * 256n + 2n * 256n ** 3n]);
  });

  it('starts a new felt after 31 words and pads the code book to the next power of two', () => {
    const many = Array.from({ length: 300 }, (_, i) => BigInt(i));
    const out = compressFelts(many);
    expect(out[0]).toBe(300n);
    expect(out[1]).toBe(212n);
    expect(out.length).toBe(2 + 300 + 1 + Math.ceil(300 / 27));
    expect(compressFelts(Array.from({ length: 32 }, () => 1n)).length).toBe(2 + 1 + 1 + 2);
  });

  it('compresses the empty sequence', () => {
    expect(compressFelts([])).toEqual([0n, 256n, 0n]);
    expect(decompressFelts([0n, 256n, 0n])).toEqual([]);
  });

  it('round-trips with decompressFelts, large felts included', () => {
    const values = [FIELD_PRIME - 1n, 0n, 1n, 2n ** 128n, 0n, FIELD_PRIME - 1n, ...Array(100).fill(3n)];
    expect(decompressFelts(compressFelts(values))).toEqual(values);
  });
});

describe('decompressFelts', () => {
  const good = compressFelts([7n, 5n, 7n, 9n]);

  it('refuses a code word outside the code book', () => {
    expect(() => decompressFelts([...good.slice(0, -1), 3n])).toThrow(/outside the code book/);
  });

  it('refuses a missing or an extra packed felt', () => {
    expect(() => decompressFelts(good.slice(0, -1))).toThrow(/expected 1 packed felts/);
    expect(() => decompressFelts([...good, 0n])).toThrow(/expected 1 packed felts/);
  });

  it('refuses words beyond the value count', () => {
    expect(() => decompressFelts([...good.slice(0, -1), good.at(-1)! + 256n ** 4n])).toThrow(/more words/);
  });

  it('refuses a code book larger than the input', () => {
    expect(() => decompressFelts([5n, 251n, 1n])).toThrow(/code book size/);
  });
});
