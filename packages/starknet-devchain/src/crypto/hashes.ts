/** Hash primitives used by the chain (Pedersen, Poseidon, sn_keccak), with memoised selectors. */
import { pedersenHash, poseidonHashMany } from '@nodegate/sierra-vm';
import { keccak } from '@scure/starknet';
import { FIELD_PRIME } from '../felt.js';

/**
 * Pedersen hash of two felts, by @nodegate/sierra-vm (the same code as the Sierra `pedersen` libfunc, on its byte
 * tables: some 20 times faster than @scure/starknet's bit-by-bit walk). A value outside [0, P) is refused.
 */
export function pedersen(a: bigint, b: bigint): bigint {
  if (a < 0n || a >= FIELD_PRIME || b < 0n || b >= FIELD_PRIME)
    throw new RangeError(`Pedersen takes field elements: ${a < 0n || a >= FIELD_PRIME ? a : b}`);
  return pedersenHash(a, b);
}

/** Poseidon hash of many felts. */
export function poseidon(values: readonly bigint[]): bigint {
  if (values.length === 0) return POSEIDON_EMPTY;
  if (values.length === 1 && values[0] === 0n) return POSEIDON_ZERO;
  return poseidonHashMany(values);
}

const POSEIDON_EMPTY = poseidonHashMany([]);
const POSEIDON_ZERO = poseidonHashMany([0n]);

const MASK_250 = 2n ** 250n - 1n;

/** Starknet keccak (250 bits) of an UTF-8 string. */
export function snKeccak(text: string): bigint {
  return keccak(new TextEncoder().encode(text)) & MASK_250;
}

/** Starknet keccak (250 bits) of raw bytes. */
export function snKeccakBytes(bytes: Uint8Array): bigint {
  return keccak(bytes) & MASK_250;
}

const selectorCache = new Map<string, bigint>();

/** Entry-point / event selector of a name. */
export function selector(name: string): bigint {
  let s = selectorCache.get(name);
  if (s === undefined) {
    s = snKeccak(name);
    selectorCache.set(name, s);
  }
  return s;
}

/** Pedersen chain hash over elements, as `compute_hash_on_elements`. */
export function pedersenOnElements(values: bigint[]): bigint {
  let h = 0n;
  for (const v of values) h = pedersen(h, v);
  return pedersen(h, BigInt(values.length));
}
