// The BLAKE2s compression function F (RFC 7693, section 3.2), on 32-bit words held in JS numbers.
import { SHA256_IV } from './sha256Compress.js';

/** The BLAKE2s initialization vector: the SHA-256 IV (RFC 7693, section 2.6). */
export const BLAKE2S_IV: readonly number[] = SHA256_IV;

/** The message word permutations of the ten rounds. */
const SIGMA: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const rotr = (x: number, n: number): number => ((x >>> n) | (x << (32 - n))) >>> 0;

/**
 * One compression: the new 8-word state from the state `h`, the 16-word block `m`, the byte counter `t` (bytes
 * hashed so far, this block included) and whether this is the last block.
 */
export function blake2sCompress(h: readonly number[], m: readonly number[], t: number, last: boolean): number[] {
  const v = [...h, ...BLAKE2S_IV];
  v[12] = (v[12]! ^ (t % 0x100000000)) >>> 0;
  v[13] = (v[13]! ^ Math.floor(t / 0x100000000)) >>> 0;
  if (last) v[14] = ~v[14]! >>> 0;
  const g = (a: number, b: number, c: number, d: number, x: number, y: number): void => {
    v[a] = (v[a]! + v[b]! + x) >>> 0;
    v[d] = rotr(v[d]! ^ v[a]!, 16);
    v[c] = (v[c]! + v[d]!) >>> 0;
    v[b] = rotr(v[b]! ^ v[c]!, 12);
    v[a] = (v[a]! + v[b]! + y) >>> 0;
    v[d] = rotr(v[d]! ^ v[a]!, 8);
    v[c] = (v[c]! + v[d]!) >>> 0;
    v[b] = rotr(v[b]! ^ v[c]!, 7);
  };
  for (const s of SIGMA) {
    g(0, 4, 8, 12, m[s[0]!]!, m[s[1]!]!);
    g(1, 5, 9, 13, m[s[2]!]!, m[s[3]!]!);
    g(2, 6, 10, 14, m[s[4]!]!, m[s[5]!]!);
    g(3, 7, 11, 15, m[s[6]!]!, m[s[7]!]!);
    g(0, 5, 10, 15, m[s[8]!]!, m[s[9]!]!);
    g(1, 6, 11, 12, m[s[10]!]!, m[s[11]!]!);
    g(2, 7, 8, 13, m[s[12]!]!, m[s[13]!]!);
    g(3, 4, 9, 14, m[s[14]!]!, m[s[15]!]!);
  }
  return h.map((w, i) => (w ^ v[i]! ^ v[i + 8]!) >>> 0);
}
