import { constValue } from '../constValue.js';
import { SierraRunError } from '../SierraRunError.js';
import type { ArrayValue, EnumValue, HandlerFactory, LibfuncHandler, Value } from '../types.js';
import { big, FALSE, modP, TRUE, typeArg, valueArg } from './common.js';

const nothing: LibfuncHandler = () => 0;
const identity: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  return 0;
};
const twice: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  out[1] = a[0]!;
  return 0;
};
const fromBool = (v: Value | undefined): boolean => (v as EnumValue).tag === 1;
const matchEnum: LibfuncHandler = (a, out) => {
  const e = a[0] as EnumValue;
  out[0] = e.value;
  return e.tag;
};
const deconstruct: LibfuncHandler = (a, out) => {
  const s = a[0] as Value[];
  for (let i = 0; i < s.length; i++) out[i] = s[i]!;
  return 0;
};

/**
 * Handlers of the core generic libfuncs: moves and copies, control flow, locals, boxes, snapshots, structs,
 * enums, bool operations, constants, nullables. Keyed by generic libfunc id.
 */
export const CORE_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  store_temp: () => identity,
  rename: () => identity,
  store_local: () => (a, out) => {
    out[0] = a[1]!;
    return 0;
  },
  alloc_local: () => (_a, out) => {
    out[0] = null;
    return 0;
  },
  finalize_locals: () => nothing,
  drop: () => nothing,
  dup: () => twice,
  snapshot_take: () => twice,
  branch_align: () => nothing,
  disable_ap_tracking: () => nothing,
  enable_ap_tracking: () => nothing,
  revoke_ap_tracking: () => nothing,
  jump: () => nothing,
  into_box: () => identity,
  unbox: () => identity,
  local_into_box: () => identity,
  box_forward_snapshot: () => identity,
  unwrap_non_zero: () => identity,
  nullable_forward_snapshot: () => identity,
  nullable_from_box: () => identity,
  null: () => (_a, out) => {
    out[0] = null;
    return 0;
  },
  match_nullable: () => (a, out) => {
    if (a[0] === null) return 0;
    out[0] = a[0]!;
    return 1;
  },
  const_as_immediate: (d, env) => {
    const v = constValue(env.registry, typeArg(d, 0));
    return (_a, out) => {
      out[0] = v;
      return 0;
    };
  },
  const_as_box: (d, env) => {
    const v = constValue(env.registry, typeArg(d, 0));
    return (_a, out) => {
      out[0] = v;
      return 0;
    };
  },
  struct_construct: () => (a, out) => {
    out[0] = a.slice();
    return 0;
  },
  struct_deconstruct: () => deconstruct,
  struct_snapshot_deconstruct: () => deconstruct,
  struct_boxed_deconstruct: () => deconstruct,
  enum_init: (d, env) => {
    const tag = Number(valueArg(d, 1));
    const info = env.registry.get(typeArg(d, 0)).info;
    if (info.kind !== 'enum' || tag >= info.variants.length) throw new SierraRunError(`enum_init: bad variant ${tag}`);
    return (a, out) => {
      out[0] = { tag, value: a[0]! };
      return 0;
    };
  },
  enum_match: () => matchEnum,
  enum_snapshot_match: () => matchEnum,
  enum_boxed_match: () => matchEnum,
  enum_from_bounded_int: () => (a, out) => {
    out[0] = { tag: Number(big(a[0])), value: [] };
    return 0;
  },
  bool_not_impl: () => (a, out) => {
    out[0] = fromBool(a[0]) ? FALSE : TRUE;
    return 0;
  },
  bool_and_impl: () => (a, out) => {
    out[0] = fromBool(a[0]) && fromBool(a[1]) ? TRUE : FALSE;
    return 0;
  },
  bool_or_impl: () => (a, out) => {
    out[0] = fromBool(a[0]) || fromBool(a[1]) ? TRUE : FALSE;
    return 0;
  },
  bool_xor_impl: () => (a, out) => {
    out[0] = fromBool(a[0]) !== fromBool(a[1]) ? TRUE : FALSE;
    return 0;
  },
  bool_to_felt252: () => (a, out) => {
    out[0] = fromBool(a[0]) ? 1n : 0n;
    return 0;
  },
  felt252_const: (d) => {
    const v = modP(valueArg(d, 0));
    return (_a, out) => {
      out[0] = v;
      return 0;
    };
  },
  span_from_tuple: () => (a, out) => {
    const s = a[0] as Value[];
    out[0] = { data: s.slice(), start: 0, end: s.length } satisfies ArrayValue;
    return 0;
  },
};
