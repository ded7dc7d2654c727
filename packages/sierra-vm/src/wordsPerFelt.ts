import { FIELD_PRIME } from './constants.js';

/**
 * How many code words of a code book of `paddedCodeSize` entries are packed into one felt: the largest count
 * `n` with `paddedCodeSize^(n+1)` still reaching P only at the last step (31 for 256 words, 27 for 512).
 */
export function wordsPerFelt(paddedCodeSize: number): number {
  if (!Number.isSafeInteger(paddedCodeSize) || paddedCodeSize < 2) {
    throw new RangeError(`code book size ${paddedCodeSize} must be an integer of at least 2`);
  }
  const base = BigInt(paddedCodeSize);
  let count = 0;
  let maxEncoded = base;
  while (maxEncoded < FIELD_PRIME) {
    maxEncoded *= base;
    count += 1;
  }
  return count;
}
