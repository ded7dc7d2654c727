import { hadesPermutation } from './poseidon.js';

/**
 * Starknet's `poseidon_hash(x, y)`: the Hades permutation of (x, y, 2), first element.
 *
 * @example
 * poseidonHash(1n, 2n); // as starknet.js hash.computePoseidonHash(1, 2)
 */
export function poseidonHash(x: bigint, y: bigint): bigint {
  return hadesPermutation(x, y, 2n)[0];
}
