import { FIELD_PRIME as P } from '../../constants.js';
import { hadesPermutation } from './poseidon.js';

/**
 * Starknet's `poseidon_hash_many`: the sponge of rate 2 over the Hades permutation, the input padded with a 1.
 *
 * @example
 * poseidonHashMany([1n, 2n, 3n]); // as starknet.js hash.computePoseidonHashOnElements([1, 2, 3])
 */
export function poseidonHashMany(values: readonly bigint[]): bigint {
  let s0 = 0n;
  let s1 = 0n;
  let s2 = 0n;
  const n = values.length;
  let i = 0;
  for (; i + 2 <= n; i += 2) [s0, s1, s2] = hadesPermutation((s0 + values[i]!) % P, (s1 + values[i + 1]!) % P, s2);
  if (i < n) [s0] = hadesPermutation((s0 + values[i]!) % P, (s1 + 1n) % P, s2);
  else [s0] = hadesPermutation((s0 + 1n) % P, s1, s2);
  return s0;
}
