// secp256k1 and secp256r1 arithmetic checked against @noble/curves.
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { INFINITY, SECP256K1, SECP256R1, type SecpCurve, type SecpPoint } from './secpCurve.js';

const CASES: [SecpCurve, typeof secp256k1.Point][] = [
  [SECP256K1, secp256k1.Point],
  [SECP256R1, p256.Point],
];

let seed = 12345n;
/** A deterministic 256-bit pseudo-random number. */
const next = (): bigint => {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 256n);
  return seed;
};

describe.each(CASES)('%s', (curve, Point) => {
  const affine = (p: InstanceType<typeof Point>): SecpPoint => {
    if (p.is0()) return INFINITY;
    const { x, y } = p.toAffine();
    return [x, y];
  };

  it('has the generator, order and field of @noble/curves', () => {
    expect(curve.generator).toEqual(affine(Point.BASE));
    expect(curve.n).toBe(Point.Fn.ORDER);
    expect(curve.p).toBe(Point.Fp.ORDER);
    expect(curve.isOnCurve(...curve.generator)).toBe(true);
    expect(curve.isOnCurve(curve.generator[0], curve.generator[1] + 1n)).toBe(false);
  });

  it('multiplies and adds as @noble/curves, scalars at and above the order included', () => {
    const scalars = [1n, 2n, 3n, curve.n - 1n, curve.n, curve.n + 5n, (1n << 256n) - 1n, next(), next(), next()];
    const q = affine(Point.BASE.multiply(next() % curve.n));
    for (const k of scalars) {
      const kn = k % curve.n;
      expect(curve.mul(curve.generator, k), `k = ${k}`).toEqual(kn === 0n ? INFINITY : affine(Point.BASE.multiply(kn)));
      const want = kn === 0n ? INFINITY : affine(Point.fromAffine({ x: q[0], y: q[1] }).multiply(kn));
      expect(curve.mul(q, k)).toEqual(want);
    }
    const a = curve.mul(curve.generator, next());
    const b = curve.mul(curve.generator, next());
    const sum = Point.fromAffine({ x: a[0], y: a[1] }).add(Point.fromAffine({ x: b[0], y: b[1] }));
    expect(curve.add(a, b)).toEqual(affine(sum));
    expect(curve.add(a, a)).toEqual(curve.mul(a, 2n));
    expect(curve.add(a, [a[0], curve.p - a[1]])).toEqual(INFINITY);
    expect(curve.add(a, INFINITY)).toEqual(a);
    expect(curve.add(INFINITY, b)).toEqual(b);
    expect(curve.mul(INFINITY, 7n)).toEqual(INFINITY);
  });

  it('finds the point of an abscissa with the asked parity, or none', () => {
    let found = 0;
    let missing = 0;
    for (let i = 0; i < 12; i++) {
      const x = next() % curve.p;
      for (const odd of [false, true]) {
        const p = curve.pointFromX(x, odd);
        let want: SecpPoint | undefined;
        try {
          // Compressed SEC1 encoding: 0x02 for an even y, 0x03 for an odd one.
          const bytes = new Uint8Array(33);
          bytes[0] = odd ? 3 : 2;
          bytes.set(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'), 1);
          want = affine(Point.fromBytes(bytes));
        } catch {
          want = undefined;
        }
        expect(p, `x = ${x}, odd = ${odd}`).toEqual(want);
        if (p) {
          expect(p[1] & 1n).toBe(odd ? 1n : 0n);
          found++;
        } else missing++;
      }
    }
    expect(found).toBeGreaterThan(0);
    expect(missing).toBeGreaterThan(0);
  });
});
