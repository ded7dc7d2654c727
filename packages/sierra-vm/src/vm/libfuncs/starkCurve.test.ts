import { randomBytes } from 'node:crypto';
import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { type CurvePoint, mul, sqrt } from './starkCurve.js';

// The Stark curve's scalar multiplication against starknet.js's (@scure/starknet, noble curves).
const Point = ec.starkCurve.ProjectivePoint;
const N = ec.starkCurve.CURVE.n;
const affine = (p: InstanceType<typeof Point>): CurvePoint => {
  if (p.equals(Point.ZERO)) return null;
  const a = p.toAffine();
  return [a.x, a.y];
};

describe('starkCurve.mul', () => {
  it('equals the reference on the generator and another point, for edge and random scalars', () => {
    const other = Point.BASE.multiply(123_456_789n);
    const scalars = [0n, 1n, 2n, 3n, 7n, N - 1n, N, N + 1n, 2n * N, 2n ** 251n + 17n];
    for (let i = 0; i < 24; i++) scalars.push(BigInt(`0x${randomBytes(32).toString('hex')}`) >> 4n);
    for (const p of [Point.BASE, other]) {
      for (const k of scalars) {
        const expected = k % N === 0n ? null : affine(p.multiply(k % N));
        expect(mul(k, affine(p)), `k = ${k}`).toEqual(expected);
      }
    }
    expect(mul(5n, null)).toBeNull();
  });

  it('a base used often moves to a table of its byte multiples and still equals the reference', () => {
    const p = Point.BASE.multiply(987_654_321n);
    const scalars = [1n, 255n, 256n, 257n, (1n << 252n) - 1n, N - 1n, N];
    for (let i = 0; i < 120; i++) scalars.push(BigInt(`0x${randomBytes(32).toString('hex')}`) >> 4n);
    for (const k of scalars) {
      const expected = k % N === 0n ? null : affine(p.multiply(k % N));
      expect(mul(k, affine(p)), `k = ${k}`).toEqual(expected);
    }
  });
});

describe('starkCurve.sqrt', () => {
  const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
  const pow = (b: bigint, e: bigint) => {
    let r = 1n;
    for (b %= P; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
    return r;
  };
  it('gives the smaller root of every square and undefined for non-squares (Euler criterion as the reference)', () => {
    const values = [0n, 1n, 2n, 3n, 4n, 9n, P - 1n, P - 4n];
    for (let i = 0; i < 60; i++) values.push(BigInt(`0x${randomBytes(32).toString('hex')}`) % P);
    let squares = 0;
    for (const a of values) {
      const root = sqrt(a);
      const isSquare = a === 0n || pow(a, (P - 1n) / 2n) === 1n;
      if (!isSquare) {
        expect(root, `a = ${a}`).toBeUndefined();
        continue;
      }
      squares++;
      expect(root, `a = ${a}`).toBeDefined();
      expect((root! * root!) % P).toBe(a);
      expect(root! <= P - root!).toBe(true);
      expect(sqrt(a)).toBe(root); // again, from the cache
    }
    expect(squares).toBeGreaterThan(10);
    expect(sqrt(4n)).toBe(2n);
    expect(sqrt(0n)).toBe(0n);
  });
});
