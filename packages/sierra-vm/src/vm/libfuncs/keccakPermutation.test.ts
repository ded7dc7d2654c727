// Keccak-f[1600] checked through keccak256 (padding done here) against @noble/hashes.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { keccakPermutation } from './keccakPermutation.js';

/** keccak256 of `bytes` with the permutation under test: pad10*1 to 136-byte blocks, absorb, squeeze 32 bytes. */
function keccak256(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array((Math.floor(bytes.length / 136) + 1) * 136);
  padded.set(bytes);
  padded[bytes.length]! ^= 0x01;
  padded[padded.length - 1]! ^= 0x80;
  const view = new DataView(padded.buffer);
  const state = new Array<bigint>(25).fill(0n);
  for (let block = 0; block < padded.length; block += 136) {
    for (let i = 0; i < 17; i++) state[i] = state[i]! ^ view.getBigUint64(block + 8 * i, true);
    keccakPermutation(state);
  }
  const out = new DataView(new ArrayBuffer(32));
  for (let i = 0; i < 4; i++) out.setBigUint64(8 * i, state[i]!, true);
  return new Uint8Array(out.buffer);
}

describe('keccakPermutation', () => {
  it('gives keccak256 equal to @noble/hashes for lengths around the block size', () => {
    let seed = 7;
    for (const n of [0, 1, 31, 32, 135, 136, 137, 271, 272, 1000]) {
      const bytes = Uint8Array.from({ length: n }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed & 0xff;
      });
      expect(Buffer.from(keccak256(bytes)).toString('hex'), `length ${n}`).toBe(
        Buffer.from(keccak_256(bytes)).toString('hex'),
      );
    }
  });

  it('is a permutation of the all-zero state to the known first lane', () => {
    // Keccak-f[1600] of the zero state: lane 0 is 0xf1258f7940e1dde7 (the Keccak team's test vector).
    const s = new Array<bigint>(25).fill(0n);
    keccakPermutation(s);
    expect(s[0]).toBe(0xf1258f7940e1dde7n);
    expect(() => keccakPermutation([0n])).toThrow(RangeError);
  });
});
