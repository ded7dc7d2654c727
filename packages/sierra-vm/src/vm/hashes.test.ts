import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { FIELD_PRIME } from '../constants.js';
import { hadesPermutation } from './libfuncs/poseidon.js';
import { poseidonHash } from './libfuncs/poseidonHash.js';
import { poseidonHashMany } from './libfuncs/poseidonHashMany.js';
import { add, mul, onCurve, pedersenHash, sqrt } from './libfuncs/starkCurve.js';

describe('Stark curve helpers of the EC and pedersen libfuncs', () => {
  it('pedersen matches starknet.js', () => {
    for (const [a, b] of [
      [0n, 0n],
      [1n, 2n],
      [
        0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cbn,
        0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31an,
      ],
      [(1n << 251n) + 5n, 123456789n],
      [FIELD_PRIME - 1n, FIELD_PRIME - 1n],
      [(1n << 248n) - 1n, 1n << 248n],
    ] as const) {
      expect(pedersenHash(a, b)).toBe(BigInt(hash.computePedersenHash(a, b)));
    }
    for (let i = 0n; i < 40n; i++) {
      const a = 0x9e3779b97f4a7c15n ** (i + 3n) % FIELD_PRIME;
      const b = 0xc2b2ae3d27d4eb4fn ** (i + 5n) % FIELD_PRIME;
      expect(pedersenHash(a, b)).toBe(BigInt(hash.computePedersenHash(a, b)));
    }
  });
  it('the Hades permutation gives starknet.js poseidon hashes', () => {
    for (const [a, b] of [
      [0n, 0n],
      [1n, 2n],
      [FIELD_PRIME - 1n, 0x1234567890abcdefn],
    ] as const) {
      expect(hadesPermutation(a, b, 2n)[0]).toBe(BigInt(hash.computePoseidonHash(a, b)));
    }
  });
  it('poseidonHash and poseidonHashMany (on the WebAssembly permutation) equal starknet.js on random and edge inputs', () => {
    let seed = 12345n;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 256n;
      return seed % FIELD_PRIME;
    };
    for (let i = 0; i < 64; i++) {
      const [x, y] = [next(), next()];
      expect(poseidonHash(x, y)).toBe(BigInt(hash.computePoseidonHash(x, y)));
    }
    const edges = [0n, 1n, FIELD_PRIME - 1n, FIELD_PRIME - 2n, 2n ** 250n, 2n ** 251n];
    for (const x of edges)
      for (const y of edges) expect(poseidonHash(x, y)).toBe(BigInt(hash.computePoseidonHash(x, y)));
    for (let len = 0; len <= 12; len++) {
      const values = Array.from({ length: len }, next);
      expect(poseidonHashMany(values)).toBe(BigInt(hash.computePoseidonHashOnElements(values)));
    }
    expect(poseidonHashMany(edges)).toBe(BigInt(hash.computePoseidonHashOnElements(edges)));
  });
  it('adds, multiplies and lifts points', () => {
    const x = 1n;
    const y = sqrt(x * x * x + x + 0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89n)!;
    expect(onCurve(x, y)).toBe(true);
    const p = [x, y] as const;
    expect(mul(3n, p)).toEqual(add(add(p, p), p));
    expect(add(p, [x, 0x800000000000011000000000000000000000000000000000000000000000001n - y])).toBeNull();
  });
});
