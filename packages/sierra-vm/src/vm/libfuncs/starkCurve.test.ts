import { randomBytes } from 'node:crypto';
import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { type CurvePoint, mul } from './starkCurve.js';

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
});
