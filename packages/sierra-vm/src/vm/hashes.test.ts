import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { FIELD_PRIME } from '../constants.js';
import { hadesPermutation } from './libfuncs/poseidon.js';
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
      const a = (0x9e3779b97f4a7c15n ** (i + 3n)) % FIELD_PRIME;
      const b = (0xc2b2ae3d27d4eb4fn ** (i + 5n)) % FIELD_PRIME;
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
  it('adds, multiplies and lifts points', () => {
    const x = 1n;
    const y = sqrt(x * x * x + x + 0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89n)!;
    expect(onCurve(x, y)).toBe(true);
    const p = [x, y] as const;
    expect(mul(3n, p)).toEqual(add(add(p, p), p));
    expect(add(p, [x, 0x800000000000011000000000000000000000000000000000000000000000001n - y])).toBeNull();
  });
});
