import { decodeShortString } from './decodeShortString.js';

/** The felt that starts a serialized `ByteArray` in panic data (what `panic!("…")` writes). */
export const BYTE_ARRAY_MAGIC = 0x46a6158a16a947e5916b2a2ca68501a45e93d7110e81aa2d6438b1c57c879a3n;

/** `ByteArray` serialization at `data[i]` (after the magic): its text and the index after it, or undefined. */
function readByteArray(data: readonly bigint[], i: number): [string, number] | undefined {
  const words = data[i];
  if (words === undefined || words > BigInt(data.length)) return undefined;
  const n = Number(words);
  const pending = data[i + 1 + n];
  const pendingLen = data[i + 2 + n];
  if (pending === undefined || pendingLen === undefined || pendingLen > 30n) return undefined;
  const bytes: number[] = [];
  const push = (w: bigint, len: number): boolean => {
    if (w >= 1n << BigInt(8 * len)) return false;
    for (let k = len - 1; k >= 0; k--) bytes.push(Number((w >> BigInt(8 * k)) & 0xffn));
    return true;
  };
  for (let k = 0; k < n; k++) if (!push(data[i + 1 + k]!, 31)) return undefined;
  if (!push(pending, Number(pendingLen))) return undefined;
  try {
    return [new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes)), i + 3 + n];
  } catch {
    return undefined;
  }
}

/**
 * Reads panic data as the Cairo runner prints it: a serialized `ByteArray` (the `panic!` / `assert!` macros: the
 * magic felt, the full 31-byte words, the pending word and its length) becomes its text, any other felt its short
 * string ({@link decodeShortString}: text when printable, else `0x` hex).
 */
export function decodePanicData(data: readonly bigint[]): string[] {
  const items: string[] = [];
  for (let i = 0; i < data.length; ) {
    if (data[i] === BYTE_ARRAY_MAGIC) {
      const read = readByteArray(data, i + 1);
      if (read) {
        items.push(read[0]);
        i = read[1];
        continue;
      }
    }
    items.push(decodeShortString(data[i]!));
    i++;
  }
  return items;
}
