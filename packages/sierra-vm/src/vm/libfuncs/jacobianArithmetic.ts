// Point arithmetic in Jacobian coordinates on a short Weierstrass curve y² = x³ + ax + b over a prime field, in
// bigint: internal helper of the Stark curve (tables of multiples, results of the WebAssembly module) and of the
// secp256k1/r1 syscalls.
import { invMod } from './common.js';

/** A point in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity. */
export type Jacobian = [X: bigint, Y: bigint, Z: bigint];

/** The operations over one field and curve coefficient `a`. */
export interface JacobianArithmetic {
  /** `v mod p` in [0, p). */
  mod(v: bigint): bigint;
  /** 2·q: M = 3X² + aZ⁴, S = 4XY², X' = M² − 2S, Y' = M(S − X') − 8Y⁴, Z' = 2YZ. */
  double(q: Jacobian): Jacobian;
  /** q + r for an affine r (mixed addition): U2 = rx·Z², S2 = ry·Z³, H = U2 − X, R = S2 − Y. */
  addAffine(q: Jacobian, r: readonly [bigint, bigint]): Jacobian;
  /** Back to affine coordinates (one inversion), or null at infinity. */
  toAffine(q: Jacobian): [bigint, bigint] | null;
  /** Many points (none at infinity) to affine coordinates with one inversion for all (Montgomery's trick). */
  normalize(points: readonly Jacobian[]): [bigint, bigint][];
}

/**
 * The Jacobian arithmetic of the curve with coefficient `a` over the prime field of `p`.
 *
 * @example
 * const { addAffine, toAffine } = jacobianArithmetic(p, 0n); // secp256k1
 * toAffine(addAffine([gx, gy, 1n], [gx, gy])); // 2·G
 */
export function jacobianArithmetic(p: bigint, a: bigint): JacobianArithmetic {
  const mod = (v: bigint): bigint => {
    const r = v % p;
    return r < 0n ? r + p : r;
  };
  const inv = (v: bigint): bigint => invMod(v, p)!;
  const double = (q: Jacobian): Jacobian => {
    const [X, Y, Z] = q;
    if (Z === 0n || Y === 0n) return [0n, 1n, 0n];
    const YY = mod(Y * Y);
    const ZZ = mod(Z * Z);
    const S = mod(4n * X * YY);
    const M = mod(3n * X * X + a * ZZ * ZZ);
    const X3 = mod(M * M - 2n * S);
    return [X3, mod(M * (S - X3) - 8n * YY * YY), mod(2n * Y * Z)];
  };
  const addAffine = (q: Jacobian, r: readonly [bigint, bigint]): Jacobian => {
    const [X, Y, Z] = q;
    if (Z === 0n) return [r[0], r[1], 1n];
    const ZZ = mod(Z * Z);
    const H = mod(r[0] * ZZ - X);
    const R = mod(r[1] * ZZ * Z - Y);
    if (H === 0n) return R === 0n ? double([r[0], r[1], 1n]) : [0n, 1n, 0n];
    const HH = mod(H * H);
    const HHH = mod(HH * H);
    const V = mod(X * HH);
    const X3 = mod(R * R - HHH - 2n * V);
    return [X3, mod(R * (V - X3) - Y * HHH), mod(Z * H)];
  };
  const toAffine = (q: Jacobian): [bigint, bigint] | null => {
    const [X, Y, Z] = q;
    if (Z === 0n) return null;
    const zi = inv(Z);
    const zi2 = mod(zi * zi);
    return [mod(X * zi2), mod(Y * zi2 * zi)];
  };
  const normalize = (points: readonly Jacobian[]): [bigint, bigint][] => {
    const prefix: bigint[] = [];
    let acc = 1n;
    for (const q of points) {
      prefix.push(acc);
      acc = mod(acc * q[2]);
    }
    let invAcc = inv(acc);
    const out = new Array<[bigint, bigint]>(points.length);
    for (let i = points.length - 1; i >= 0; i--) {
      const [X, Y, Z] = points[i]!;
      const zi = mod(invAcc * prefix[i]!);
      invAcc = mod(invAcc * Z);
      const zi2 = mod(zi * zi);
      out[i] = [mod(X * zi2), mod(Y * zi2 * zi)];
    }
    return out;
  };
  return { mod, double, addAffine, toAffine, normalize };
}
