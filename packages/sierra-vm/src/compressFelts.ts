import { wordsPerFelt } from './wordsPerFelt.js';

/**
 * Compresses felts the way the Cairo compiler does for `sierra_program`.
 *
 * Output: `[codeSize, padding, ...codeBook, valueCount, ...packed]` where the code book lists the distinct
 * values in order of first occurrence, `codeSize + padding` is the next power of two of at least 256, and each
 * packed felt holds {@link wordsPerFelt} code-book indices, least significant first.
 *
 * @param values the felts to compress (each in [0, P))
 * @returns the compressed felts
 */
export function compressFelts(values: readonly bigint[]): bigint[] {
  const code = new Map<bigint, number>();
  for (const value of values) if (!code.has(value)) code.set(value, code.size);
  let padded = 256;
  while (padded < code.size) padded *= 2;
  const out: bigint[] = [BigInt(code.size), BigInt(padded - code.size), ...code.keys(), BigInt(values.length)];
  const perFelt = wordsPerFelt(padded);
  const base = BigInt(padded);
  for (let start = 0; start < values.length; start += perFelt) {
    let packed = 0n;
    const end = Math.min(start + perFelt, values.length);
    for (let i = end - 1; i >= start; i--) packed = packed * base + BigInt(code.get(values[i]!)!);
    out.push(packed);
  }
  return out;
}
