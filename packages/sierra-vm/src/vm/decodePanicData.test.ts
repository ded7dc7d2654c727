import { describe, expect, it } from 'vitest';
import { BYTE_ARRAY_MAGIC, decodePanicData } from './decodePanicData.js';

const word = (s: string): bigint => BigInt(`0x${Buffer.from(s).toString('hex') || '0'}`);

describe('decodePanicData', () => {
  it('reads a ByteArray (full words and pending word) and the felts around it', () => {
    const long = 'a'.repeat(31);
    const data = [word('before'), BYTE_ARRAY_MAGIC, 1n, word(long), word('tail!'), 5n, 7n];
    expect(decodePanicData(data)).toEqual(['before', `${long}tail!`, '0x7']);
  });
  it('keeps a malformed ByteArray as felts', () => {
    expect(decodePanicData([BYTE_ARRAY_MAGIC, 0n, word('abc'), 2n])).toHaveLength(4);
  });
});
