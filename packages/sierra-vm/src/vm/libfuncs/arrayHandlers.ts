import { SierraRunError } from '../SierraRunError.js';
import type { ArrayValue, HandlerFactory, LibfuncHandler, Value } from '../types.js';
import { big, typeArg } from './common.js';

const view = (data: Value[], start: number, end: number): ArrayValue => ({ data, start, end });
const arr = (v: Value | undefined): ArrayValue => v as ArrayValue;

const popFront =
  (keepOnEmpty: boolean): LibfuncHandler =>
  (a, out) => {
    const x = arr(a[0]);
    if (x.start === x.end) {
      if (keepOnEmpty) out[0] = x;
      return 1;
    }
    out[0] = view(x.data, x.start + 1, x.end);
    out[1] = x.data[x.start]!;
    return 0;
  };
const popBack: LibfuncHandler = (a, out) => {
  const x = arr(a[0]);
  if (x.start === x.end) {
    out[0] = x;
    return 1;
  }
  out[0] = view(x.data, x.start, x.end - 1);
  out[1] = x.data[x.end - 1]!;
  return 0;
};
/**
 * Pops as many elements as the tuple type has members, into a struct, from the front or the back. The tuple is the
 * last generic argument (the compilers write `array_snapshot_multi_pop_front<Tuple<T, …>>`, older texts
 * `<T, Tuple<T, …>>`).
 */
const multiPop =
  (back: boolean): HandlerFactory =>
  (d, env) => {
    const t = env.registry.get(typeArg(d, d.genericArgs.length - 1)).info;
    if (t.kind !== 'struct') throw new SierraRunError(`${d.genericId}: the pop type is not a tuple`);
    const n = t.members.length;
    return (a, out) => {
      out[0] = a[0]!;
      const x = arr(a[1]);
      if (x.end - x.start < n) {
        out[1] = x;
        return 1;
      }
      if (back) {
        out[1] = view(x.data, x.start, x.end - n);
        out[2] = x.data.slice(x.end - n, x.end);
      } else {
        out[1] = view(x.data, x.start + n, x.end);
        out[2] = x.data.slice(x.start, x.start + n);
      }
      return 0;
    };
  };

/**
 * Handlers of `Array<T>` and its snapshots (spans): new, append, pop front/back (single and multi), get, slice,
 * len, tuple ↔ span.
 */
export const ARRAY_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  array_new: () => (_a, out) => {
    out[0] = view([], 0, 0);
    return 0;
  },
  array_append: () => (a, out) => {
    const x = arr(a[0]);
    if (x.end === x.data.length) {
      x.data.push(a[1]!);
      out[0] = view(x.data, x.start, x.end + 1);
    } else {
      const data = x.data.slice(x.start, x.end);
      data.push(a[1]!);
      out[0] = view(data, 0, data.length);
    }
    return 0;
  },
  array_pop_front: () => popFront(true),
  array_pop_front_consume: () => popFront(false),
  array_snapshot_pop_front: () => popFront(true),
  array_snapshot_pop_back: () => popBack,
  array_snapshot_multi_pop_front: multiPop(false),
  array_snapshot_multi_pop_back: multiPop(true),
  array_get: () => (a, out) => {
    out[0] = a[0]!;
    const x = arr(a[1]);
    const i = big(a[2]);
    if (i >= BigInt(x.end - x.start)) return 1;
    out[1] = x.data[x.start + Number(i)]!;
    return 0;
  },
  array_slice: () => (a, out) => {
    out[0] = a[0]!;
    const x = arr(a[1]);
    const start = big(a[2]);
    const len = big(a[3]);
    if (start + len > BigInt(x.end - x.start)) return 1;
    out[1] = view(x.data, x.start + Number(start), x.start + Number(start + len));
    return 0;
  },
  array_len: () => (a, out) => {
    const x = arr(a[0]);
    out[0] = BigInt(x.end - x.start);
    return 0;
  },
  tuple_from_span: (d, env) => {
    const t = env.registry.get(typeArg(d, 1)).info;
    if (t.kind !== 'struct') throw new SierraRunError('tuple_from_span: not a tuple type');
    const n = t.members.length;
    return (a, out) => {
      const x = arr(a[0]);
      if (x.end - x.start !== n) return 1;
      out[0] = x.data.slice(x.start, x.end);
      return 0;
    };
  },
};
