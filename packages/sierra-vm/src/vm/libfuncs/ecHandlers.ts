import type { HandlerFactory, Value } from '../types.js';
import { big } from './common.js';
import { hadesPermutation } from './poseidon.js';
import { add, BETA, type CurvePoint, mul, onCurve, pedersenHash, sqrt } from './starkCurve.js';
import { FIELD_PRIME } from '../../constants.js';

/** An `EcPoint` value is `[x, y]`; `[0, 0]` is the point at infinity (as in Cairo). `EcState` is an `EcPoint`. */
const toPoint = (v: Value | undefined): CurvePoint => {
  const [x, y] = v as [bigint, bigint];
  return x === 0n && y === 0n ? null : [x, y];
};
const fromPoint = (p: CurvePoint): Value => (p === null ? [0n, 0n] : [p[0], p[1]]);

/**
 * Handlers of the Stark curve (`ec_point_zero`, `ec_neg`, `ec_point_try_new_nz`, `ec_point_from_x_nz` (the smaller
 * root as y), `ec_point_is_zero`, `ec_point_unwrap`, `ec_state_*`) and of the hash builtins (`pedersen`,
 * `hades_permutation`).
 * EcState is modelled as the accumulated point (no random shift).
 */
export const EC_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  pedersen: () => (a, out) => {
    out[0] = a[0]!;
    out[1] = pedersenHash(big(a[1]), big(a[2]));
    return 0;
  },
  hades_permutation: () => (a, out) => {
    const [x, y, z] = hadesPermutation(big(a[1]), big(a[2]), big(a[3]));
    out[0] = a[0]!;
    out[1] = x;
    out[2] = y;
    out[3] = z;
    return 0;
  },
  ec_point_zero: () => (_a, out) => {
    out[0] = [0n, 0n];
    return 0;
  },
  ec_neg: () => (a, out) => {
    out[0] = fromPoint(negate(toPoint(a[0])));
    return 0;
  },
  ec_neg_nz: () => (a, out) => {
    out[0] = fromPoint(negate(toPoint(a[0])));
    return 0;
  },
  ec_point_try_new_nz: () => (a, out) => {
    const x = big(a[0]);
    const y = big(a[1]);
    if (!onCurve(x, y)) return 1;
    out[0] = [x, y];
    return 0;
  },
  ec_point_from_x_nz: () => (a, out) => {
    out[0] = a[0]!;
    const x = big(a[1]);
    const y = sqrt(x * x * x + x + BETA);
    if (y === undefined) return 1;
    out[1] = [x, y];
    return 0;
  },
  ec_point_is_zero: () => (a, out) => {
    if (toPoint(a[0]) === null) return 0;
    out[0] = a[0]!;
    return 1;
  },
  ec_point_unwrap: () => (a, out) => {
    const [x, y] = a[0] as [bigint, bigint];
    out[0] = x;
    out[1] = y;
    return 0;
  },
  ec_state_init: () => (_a, out) => {
    out[0] = [0n, 0n];
    return 0;
  },
  ec_state_add: () => (a, out) => {
    out[0] = fromPoint(add(toPoint(a[0]), toPoint(a[1])));
    return 0;
  },
  ec_state_add_mul: () => (a, out) => {
    out[0] = a[0]!;
    out[1] = fromPoint(add(toPoint(a[1]), mul(big(a[2]), toPoint(a[3]))));
    return 0;
  },
  ec_state_try_finalize_nz: () => (a, out) => {
    const p = toPoint(a[0]);
    if (p === null) return 1;
    out[0] = fromPoint(p);
    return 0;
  },
};

function negate(p: CurvePoint): CurvePoint {
  return p === null ? null : [p[0], p[1] === 0n ? 0n : FIELD_PRIME - p[1]];
}
