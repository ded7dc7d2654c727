import { SierraRunError } from '../SierraRunError.js';
import type { HandlerFactory, LibfuncHandler, TypeInfo, Value } from '../types.js';
import { big, invMod, isqrt, modP, typeArg, valueArg } from './common.js';

const U128 = 1n << 128n;
const MASK128 = U128 - 1n;

/** A `u256` (`{ low, high }`) as a bigint, and back. */
const fromU256 = (v: Value | undefined): bigint => {
  const [low, high] = v as [bigint, bigint];
  return (high << 128n) | low;
};
const toU256 = (x: bigint): Value[] => [x & MASK128, x >> 128n];
/** A `u512` (`{ limb0, limb1, limb2, limb3 }`, least significant first). */
const fromU512 = (v: Value | undefined): bigint => {
  const l = v as bigint[];
  return l[0]! | (l[1]! << 128n) | (l[2]! << 256n) | (l[3]! << 384n);
};
const toU512 = (x: bigint): Value[] => [x & MASK128, (x >> 128n) & MASK128, (x >> 256n) & MASK128, x >> 384n];

/** The `[min, max]` range of an integer-like type, or undefined for felt252 / others. */
const rangeOf = (t: TypeInfo): [bigint, bigint] | undefined =>
  t.kind === 'int' || t.kind === 'boundedInt' ? [t.min, t.max] : undefined;

/** Unsigned overflowing add: `(rc, x, y)` → ok `(rc, x + y)` | overflow `(rc, x + y - 2^bits)`. */
const unsignedAdd =
  (max: bigint, span: bigint): LibfuncHandler =>
  (a, out) => {
    out[0] = a[0]!;
    const r = big(a[1]) + big(a[2]);
    if (r <= max) {
      out[1] = r;
      return 0;
    }
    out[1] = r - span;
    return 1;
  };
/** Unsigned overflowing sub: `(rc, x, y)` → ok `(rc, x - y)` | underflow `(rc, x - y + 2^bits)`. */
const unsignedSub =
  (span: bigint): LibfuncHandler =>
  (a, out) => {
    out[0] = a[0]!;
    const r = big(a[1]) - big(a[2]);
    if (r >= 0n) {
      out[1] = r;
      return 0;
    }
    out[1] = r + span;
    return 1;
  };

/** Handlers for `<ty>_<op>` of one integer type (`u8`…`u128`, `i8`…`i128`). */
function intFamily(ty: string, op: string): HandlerFactory | undefined {
  const signed = ty.startsWith('i');
  const bits = BigInt(ty.slice(1));
  const min = signed ? -(1n << (bits - 1n)) : 0n;
  const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  const span = 1n << bits;
  const h =
    (f: LibfuncHandler): HandlerFactory =>
    () =>
      f;
  /** Overflowing add/sub: unsigned (ok, wrapped) or signed (in range, underflow, overflow), range check first. */
  const overflowing = (f: (x: bigint, y: bigint) => bigint): HandlerFactory =>
    h((a, out) => {
      out[0] = a[0]!;
      const r = f(big(a[1]), big(a[2]));
      if (r >= min && r <= max) {
        out[1] = r;
        return 0;
      }
      if (r < min) {
        out[1] = r + span;
        return 1;
      }
      out[1] = r - span;
      return signed ? 2 : 1;
    });
  const compare = (f: (x: bigint, y: bigint) => boolean, rangeCheck: boolean): HandlerFactory =>
    h((a, out) => {
      const o = rangeCheck ? 1 : 0;
      if (rangeCheck) out[0] = a[0]!;
      return f(big(a[o]), big(a[o + 1])) ? 1 : 0;
    });
  switch (op) {
    case 'const':
      return (d) => {
        const v = valueArg(d, 0);
        return (_a, out) => {
          out[0] = v;
          return 0;
        };
      };
    case 'overflowing_add':
    case 'overflowing_add_impl':
      return signed ? overflowing((x, y) => x + y) : h(unsignedAdd(max, span));
    case 'overflowing_sub':
    case 'overflowing_sub_impl':
      return signed ? overflowing((x, y) => x - y) : h(unsignedSub(span));
    case 'eq':
      return compare((x, y) => x === y, false);
    case 'lt':
      return compare((x, y) => x < y, true);
    case 'le':
      return compare((x, y) => x <= y, true);
    case 'ge':
      return compare((x, y) => x >= y, true);
    case 'is_zero':
      return h((a, out) => {
        if (a[0] === 0n) return 0;
        out[0] = a[0]!;
        return 1;
      });
    case 'to_felt252':
      return h((a, out) => {
        out[0] = modP(big(a[0]));
        return 0;
      });
    case 'try_from_felt252':
      return h((a, out) => {
        out[0] = a[0]!;
        let v = big(a[1]);
        if (signed && v > max) v = v - modP(-1n) - 1n; // felts above max read as negative numbers
        if (v < min || v > max) return 1;
        out[1] = v;
        return 0;
      });
    case 'wide_mul':
      return h((a, out) => {
        out[0] = big(a[0]) * big(a[1]);
        return 0;
      });
    case 'safe_divmod':
      return h((a, out) => {
        const x = big(a[1]);
        const y = big(a[2]);
        out[0] = a[0]!;
        out[1] = x / y;
        out[2] = x % y;
        return 0;
      });
    case 'sqrt':
      return h((a, out) => {
        out[0] = a[0]!;
        out[1] = isqrt(big(a[1]));
        return 0;
      });
    case 'diff':
      return h((a, out) => {
        out[0] = a[0]!;
        const r = big(a[1]) - big(a[2]);
        out[1] = r >= 0n ? r : r + span;
        return r >= 0n ? 0 : 1;
      });
    case 'bitwise':
      return h((a, out) => {
        const x = big(a[1]);
        const y = big(a[2]);
        out[0] = a[0]!;
        out[1] = x & y;
        out[2] = x ^ y;
        out[3] = x | y;
        return 0;
      });
    case 'guarantee_mul':
      return h((a, out) => {
        const r = big(a[0]) * big(a[1]);
        // Products below 2^128 (the usual case) need no split.
        const small = r <= MASK128;
        out[0] = small ? 0n : r >> 128n;
        out[1] = small ? r : r & MASK128;
        out[2] = null;
        return 0;
      });
    case 'mul_guarantee_verify':
      return h((a, out) => {
        out[0] = a[0]!;
        return 0;
      });
    case 'byte_reverse':
      return h((a, out) => {
        let x = big(a[1]);
        let r = 0n;
        for (let i = 0; i < 16; i++) {
          r = (r << 8n) | (x & 0xffn);
          x >>= 8n;
        }
        out[0] = a[0]!;
        out[1] = r;
        return 0;
      });
    default:
      return undefined;
  }
}

/** Handlers of u256 / u512 helpers (values as structs of u128 limbs). */
const WIDE: Record<string, LibfuncHandler> = {
  u256_is_zero: (a, out) => {
    if (fromU256(a[0]) === 0n) return 0;
    out[0] = a[0]!;
    return 1;
  },
  u256_safe_divmod: (a, out) => {
    const x = fromU256(a[1]);
    const y = fromU256(a[2]);
    out[0] = a[0]!;
    out[1] = toU256(x / y);
    out[2] = toU256(x % y);
    out[3] = null;
    out[4] = null;
    return 0;
  },
  u256_sqrt: (a, out) => {
    out[0] = a[0]!;
    out[1] = isqrt(fromU256(a[1]));
    return 0;
  },
  /**
   * `(RangeCheck, b, NonZero n)` → ok `(RangeCheck, b⁻¹ mod n, 8 U128MulGuarantee)` | err `(RangeCheck, 2
   * U128MulGuarantee)` when b has no inverse modulo n (`gcd(b, n) ≠ 1`, or `n = 1`).
   */
  u256_guarantee_inv_mod_n: (a, out) => {
    out[0] = a[0]!;
    const inv = invMod(fromU256(a[1]), fromU256(a[2]));
    if (inv === undefined || inv === 0n) {
      out[1] = null;
      out[2] = null;
      return 1;
    }
    out[1] = toU256(inv);
    for (let i = 2; i < 10; i++) out[i] = null;
    return 0;
  },
  u512_safe_divmod_by_u256: (a, out) => {
    const x = fromU512(a[1]);
    const y = fromU256(a[2]);
    out[0] = a[0]!;
    out[1] = toU512(x / y);
    out[2] = toU256(x % y);
    for (let i = 3; i < 8; i++) out[i] = null;
    return 0;
  },
  u128s_from_felt252: (a, out) => {
    const x = big(a[1]);
    out[0] = a[0]!;
    if (x < U128) {
      out[1] = x;
      return 0;
    }
    out[1] = x >> 128n;
    out[2] = x & MASK128;
    return 1;
  },
  bitwise: (a, out) => {
    const x = big(a[1]);
    const y = big(a[2]);
    out[0] = a[0]!;
    out[1] = x & y;
    out[2] = x ^ y;
    out[3] = x | y;
    return 0;
  },
};

/** Handlers of bounded ints, integer ranges and casts between integer types. */
const CASTS: Record<string, HandlerFactory> = {
  upcast: (d, env) => {
    const toFelt = env.registry.get(typeArg(d, 1)).info.kind === 'felt252';
    return (a, out) => {
      out[0] = toFelt ? modP(big(a[0])) : a[0]!;
      return 0;
    };
  },
  downcast: (d, env) => {
    const from = env.registry.get(typeArg(d, 0)).info;
    const range = rangeOf(env.registry.get(typeArg(d, 1)).info);
    if (!range) throw new SierraRunError('downcast: the target is not an integer type');
    const [lo, hi] = range;
    const fromFelt = from.kind === 'felt252';
    return (a, out) => {
      out[0] = a[0]!;
      let v = big(a[1]);
      if (fromFelt && v > hi) v = v - modP(-1n) - 1n;
      if (v < lo || v > hi) return 1;
      out[1] = v;
      return 0;
    };
  },
  bounded_int_add: () => (a, out) => {
    out[0] = big(a[0]) + big(a[1]);
    return 0;
  },
  bounded_int_sub: () => (a, out) => {
    out[0] = big(a[0]) - big(a[1]);
    return 0;
  },
  bounded_int_mul: () => (a, out) => {
    out[0] = big(a[0]) * big(a[1]);
    return 0;
  },
  bounded_int_div_rem: () => (a, out) => {
    const x = big(a[1]);
    const y = big(a[2]);
    out[0] = a[0]!;
    out[1] = x / y;
    out[2] = x % y;
    return 0;
  },
  bounded_int_constrain: (d) => {
    const boundary = valueArg(d, 1);
    return (a, out) => {
      out[0] = a[0]!;
      out[1] = a[1]!;
      return big(a[1]) < boundary ? 0 : 1;
    };
  },
  /** `IntRange<T>` is `[start, end]`; an invalid range (start > end) gives `Err([end, end])`, empty. */
  int_range_try_new: () => (a, out) => {
    const x = big(a[1]);
    const y = big(a[2]);
    out[0] = a[0]!;
    out[1] = x <= y ? [x, y] : [y, y];
    return x <= y ? 0 : 1;
  },
  int_range_pop_front: () => (a, out) => {
    const [x, y] = a[0] as [bigint, bigint];
    if (x >= y) return 0;
    out[0] = [x + 1n, y];
    out[1] = x;
    return 1;
  },
  bounded_int_wrap_non_zero: () => (a, out) => {
    out[0] = a[0]!;
    return 0;
  },
  bounded_int_is_zero: () => (a, out) => {
    if (a[0] === 0n) return 0;
    out[0] = a[0]!;
    return 1;
  },
  bounded_int_trim_min: (d, env) => {
    const range = rangeOf(env.registry.get(typeArg(d, 0)).info);
    if (!range) throw new SierraRunError('bounded_int_trim_min: not an integer type');
    return (a, out) => {
      if (a[0] === range[0]) return 0;
      out[0] = a[0]!;
      return 1;
    };
  },
  bounded_int_trim_max: (d, env) => {
    const range = rangeOf(env.registry.get(typeArg(d, 0)).info);
    if (!range) throw new SierraRunError('bounded_int_trim_max: not an integer type');
    return (a, out) => {
      if (a[0] === range[1]) return 0;
      out[0] = a[0]!;
      return 1;
    };
  },
};

const INT_OP = /^([ui](?:8|16|32|64|128))_(.+)$/;

/**
 * The handler factory of an integer generic libfunc (`u8_overflowing_add`, `i32_diff`, `u128_guarantee_mul`,
 * `u256_safe_divmod`, `downcast`, `bounded_int_add`…), or undefined if it is not one the interpreter knows.
 */
export function intHandlerFactory(genericId: string): HandlerFactory | undefined {
  const wide = WIDE[genericId];
  if (wide) return () => wide;
  const cast = CASTS[genericId];
  if (cast) return cast;
  const m = INT_OP.exec(genericId);
  return m ? intFamily(m[1]!, m[2]!) : undefined;
}
