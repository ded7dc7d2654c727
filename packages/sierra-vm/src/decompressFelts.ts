import { SierraDecodeError } from './SierraDecodeError.js';
import { wordsPerFelt } from './wordsPerFelt.js';

/**
 * Decompresses felts written by {@link compressFelts} (the part of `sierra_program` after the version header).
 *
 * Stricter than the compiler's reader: the packed felts must be exactly as many as the value count needs, and
 * each must hold nothing above its last code word, so that only canonical input decodes.
 *
 * @param packed `[codeSize, padding, ...codeBook, valueCount, ...packed]`
 * @returns the original felts
 * @throws {SierraDecodeError} on malformed input
 */
export function decompressFelts(packed: readonly bigint[]): bigint[] {
  const small = (at: number, what: string): number => {
    const v = packed[at];
    if (v === undefined) throw new SierraDecodeError(`missing ${what}`, at);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new SierraDecodeError(`${what} ${v} is too large`, at);
    return Number(v);
  };
  const codeSize = small(0, 'code book size');
  if (codeSize >= packed.length - 1) throw new SierraDecodeError(`code book size ${codeSize} exceeds the input`, 0);
  const padding = small(1, 'code book padding');
  const code = packed.slice(2, 2 + codeSize);
  const countAt = 2 + codeSize;
  const count = small(countAt, 'value count');
  const paddedSize = codeSize + padding;
  const perFelt = wordsPerFelt(paddedSize);
  const expectedPacked = Math.ceil(count / perFelt);
  const words = packed.length - countAt - 1;
  if (words !== expectedPacked) {
    throw new SierraDecodeError(`expected ${expectedPacked} packed felts for ${count} values, found ${words}`);
  }
  const base = BigInt(paddedSize);
  const out: bigint[] = [];
  for (let w = 0; w < words; w++) {
    let v = packed[countAt + 1 + w]!;
    const n = Math.min(perFelt, count - out.length);
    for (let i = 0; i < n; i++) {
      const index = Number(v % base);
      const value = code[index];
      if (value === undefined)
        throw new SierraDecodeError(`code word ${index} is outside the code book`, countAt + 1 + w);
      out.push(value);
      v /= base;
    }
    if (v !== 0n) throw new SierraDecodeError('packed felt holds more words than expected', countAt + 1 + w);
  }
  return out;
}
