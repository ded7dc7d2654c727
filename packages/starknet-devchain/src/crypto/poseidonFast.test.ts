import { poseidonHash, poseidonHashMany } from '@scure/starknet';
import { describe, expect, it } from 'vitest';
import { poseidonHashManyFast, poseidonPair } from './poseidonFast.js';

const P = 2n ** 251n + 17n * 2n ** 192n + 1n;

describe('poseidonHashManyFast', () => {
  it('equals @scure/starknet poseidonHashMany for lengths 0..12 and edge values', () => {
    let seed = 12345n;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 256n;
      return seed % P;
    };
    for (let len = 0; len <= 12; len++) {
      const values = Array.from({ length: len }, next);
      expect(poseidonHashManyFast(values)).toBe(poseidonHashMany(values));
    }
    expect(poseidonHashManyFast([P - 1n, 0n, P - 1n])).toBe(poseidonHashMany([P - 1n, 0n, P - 1n]));
  });

  it('poseidonPair equals @scure/starknet poseidonHash on random and edge inputs', () => {
    let seed = 987654321n;
    for (let i = 0; i < 64; i++) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 256n;
      const x = seed % P;
      const y = (seed >> 7n) % P;
      expect(poseidonPair(x, y)).toBe(poseidonHash(x, y));
    }
    expect(poseidonPair(P - 1n, P - 1n)).toBe(poseidonHash(P - 1n, P - 1n));
    expect(poseidonPair(0n, 0n)).toBe(poseidonHash(0n, 0n));
  });
});
