// Small helpers shared by the libfunc handler families (internal, not exported from the package).
import { FIELD_PRIME } from '../../constants.js';
import type { LibfuncDeclaration } from '../../types.js';
import { SierraRunError } from '../SierraRunError.js';
import type { EnumValue, Value } from '../types.js';

/** `x mod P` in `[0, P)`. */
export const modP = (x: bigint): bigint => {
  const r = x % FIELD_PRIME;
  return r < 0n ? r + FIELD_PRIME : r;
};

/** The `i`-th generic argument of a libfunc, which must be a concrete type. */
export const typeArg = (decl: LibfuncDeclaration, i: number): number => {
  const a = decl.genericArgs[i];
  if (a?.kind !== 'type') throw new SierraRunError(`${decl.genericId}: generic argument ${i} is not a type`);
  return a.id;
};

/** The `i`-th generic argument of a libfunc, which must be a value. */
export const valueArg = (decl: LibfuncDeclaration, i: number): bigint => {
  const a = decl.genericArgs[i];
  if (a?.kind !== 'value') throw new SierraRunError(`${decl.genericId}: generic argument ${i} is not a value`);
  return a.value;
};

/** The shared `bool` values (`Enum<ut@bool, (), ()>`): false is variant 0. */
export const FALSE: EnumValue = Object.freeze({ tag: 0, value: Object.freeze([]) as unknown as Value[] });
export const TRUE: EnumValue = Object.freeze({ tag: 1, value: Object.freeze([]) as unknown as Value[] });

/** A value the handler expects to be a bigint. */
export const big = (v: Value | undefined): bigint => {
  if (typeof v !== 'bigint') throw new SierraRunError(`expected an integer value, got ${String(v)}`);
  return v;
};

/** Integer square root (floor). */
export const isqrt = (n: bigint): bigint => {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
};

/** `a^-1 mod n` (`a` in `[0, n)`, `n > 1`), or undefined when `gcd(a, n) ≠ 1`. */
export const invMod = (a: bigint, n: bigint): bigint | undefined => {
  let [r0, r1, s0, s1] = [n, a % n, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n || n === 1n) return undefined;
  const r = s0 % n;
  return r < 0n ? r + n : r;
};

/** `base^e mod n` (`e ≥ 0`, `n > 1`) by square-and-multiply. */
export const modPow = (base: bigint, e: bigint, n: bigint): bigint => {
  let r = 1n;
  let x = base % n;
  if (x < 0n) x += n;
  while (e > 0n) {
    if (e & 1n) r = (r * x) % n;
    x = (x * x) % n;
    e >>= 1n;
  }
  return r;
};
