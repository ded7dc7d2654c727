/** Hash primitives used by the chain (Pedersen, Poseidon, sn_keccak), with memoised selectors. */
import { keccak, pedersen as scurePedersen } from '@scure/starknet';
import { poseidonHashMany } from '@nodegate/sierra-vm';

/** Pedersen hash of two felts. */
export function pedersen(a: bigint, b: bigint): bigint {
  return BigInt(scurePedersen(a, b));
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
