import { FIELD_PRIME } from '../../constants.js';
import { SierraRunError } from '../SierraRunError.js';
import type { HandlerFactory, LibfuncHandler } from '../types.js';
import { big, modP } from './common.js';

/** `a^-1 mod P` by the extended Euclidean algorithm. */
const inverse = (a: bigint): bigint => {
  let [r0, r1, s0, s1] = [FIELD_PRIME, a, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new SierraRunError('felt252_div by zero');
  return modP(s0);
};
const binary =
  (f: (a: bigint, b: bigint) => bigint): HandlerFactory =>
  (): LibfuncHandler =>
  (a, out) => {
    out[0] = f(big(a[0]), big(a[1]));
    return 0;
  };

/** Handlers of felt252 arithmetic: add, sub, mul, div (by a NonZero), is_zero. */
export const FELT_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  felt252_add: () => (a, out) => {
    const r = big(a[0]) + big(a[1]);
    out[0] = r >= FIELD_PRIME ? r - FIELD_PRIME : r;
    return 0;
  },
  felt252_sub: () => (a, out) => {
    const r = big(a[0]) - big(a[1]);
    out[0] = r < 0n ? r + FIELD_PRIME : r;
    return 0;
  },
  felt252_mul: () => (a, out) => {
    const r = big(a[0]) * big(a[1]);
    // Products of small felts need no reduction.
    out[0] = r < FIELD_PRIME ? r : r % FIELD_PRIME;
    return 0;
  },
  felt252_div: binary((x, y) => (x * inverse(y)) % FIELD_PRIME),
  felt252_is_zero: () => (a, out) => {
    if (a[0] === 0n) return 0;
    out[0] = a[0]!;
    return 1;
  },
};
