// The secp256k1 and secp256r1 curves (short Weierstrass y² = x³ + ax + b over a 256-bit prime field, cofactor 1),
// internal helpers of the secp256k1_* / secp256r1_* syscalls. Points are affine `[x, y]`; `[0n, 0n]` is the point at
// infinity (as the Starknet OS writes it: neither curve has a point with x = y = 0).
import { modPow } from './common.js';
import { type Jacobian, jacobianArithmetic } from './jacobianArithmetic.js';

/** An affine point; `[0n, 0n]` is the point at infinity. */
export type SecpPoint = readonly [x: bigint, y: bigint];

/** A curve's parameters and arithmetic. */
export interface SecpCurve {
  readonly name: string;
  /** The field prime. */
  readonly p: bigint;
  /** The group order (the curve size). */
  readonly n: bigint;
  readonly a: bigint;
  readonly b: bigint;
  readonly generator: SecpPoint;
  /** Whether `[x, y]` (coordinates below p) is on the curve; `[0, 0]` counts as the point at infinity. */
  isOnCurve(x: bigint, y: bigint): boolean;
  /** The point of abscissa `x` (below p) whose ordinate has parity `odd`, or undefined when x³ + ax + b is no square. */
  pointFromX(x: bigint, odd: boolean): SecpPoint | undefined;
  add(p: SecpPoint, q: SecpPoint): SecpPoint;
  /** `k·p` for any non-negative `k` (reduced modulo the group order). */
  mul(p: SecpPoint, k: bigint): SecpPoint;
}

export const INFINITY: SecpPoint = Object.freeze([0n, 0n]) as unknown as SecpPoint;

function makeCurve(name: string, p: bigint, n: bigint, a: bigint, b: bigint, generator: SecpPoint): SecpCurve {
  const { mod, double, addAffine, toAffine: affineOrNull } = jacobianArithmetic(p, a);
  // p ≡ 3 (mod 4) for both curves: a square root is v^((p + 1) / 4).
  if (p % 4n !== 3n) throw new Error(`${name}: square roots assume p ≡ 3 mod 4`);
  const sqrtExp = (p + 1n) / 4n;
  const rhs = (x: bigint): bigint => mod(x * x * x + a * x + b);
  const isZero = (q: SecpPoint): boolean => q[0] === 0n && q[1] === 0n;
  const toAffine = (q: Jacobian): SecpPoint => affineOrNull(q) ?? INFINITY;

  return {
    name,
    p,
    n,
    a,
    b,
    generator,
    isOnCurve: (x, y) => (x === 0n && y === 0n) || mod(y * y) === rhs(x),
    pointFromX(x, odd) {
      const y2 = rhs(x);
      const y = modPow(y2, sqrtExp, p);
      if (mod(y * y) !== y2) return undefined;
      return [x, (y & 1n) === (odd ? 1n : 0n) ? y : mod(-y)];
    },
    add(q, r) {
      if (isZero(q)) return r;
      if (isZero(r)) return q;
      return toAffine(addAffine([q[0], q[1], 1n], r));
    },
    mul(q, k) {
      const e = k % n;
      if (e === 0n || isZero(q)) return INFINITY;
      // Left to right double-and-add over Jacobian coordinates: one inversion per product.
      let acc: Jacobian = [0n, 1n, 0n];
      const bits = e.toString(2);
      for (let i = 0; i < bits.length; i++) {
        acc = double(acc);
        if (bits.charCodeAt(i) === 49) acc = addAffine(acc, q);
      }
      return toAffine(acc);
    },
  };
}

/** secp256k1 (SEC 2 §2.4.1), the curve of Ethereum signatures. */
export const SECP256K1: SecpCurve = makeCurve(
  'secp256k1',
  0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn,
  0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  0n,
  7n,
  [
    0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
    0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
  ],
);

/** secp256r1 (NIST P-256, SEC 2 §2.4.2), the curve of passkeys. */
export const SECP256R1: SecpCurve = makeCurve(
  'secp256r1',
  0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
  0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  0xffffffff00000001000000000000000000000000fffffffffffffffffffffffcn,
  0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
  [
    0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
    0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
  ],
);
