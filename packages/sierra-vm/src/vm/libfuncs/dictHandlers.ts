import { SierraRunError } from '../SierraRunError.js';
import type { DictEntryValue, DictValue, HandlerFactory, Value } from '../types.js';
import { big, typeArg } from './common.js';

/**
 * Handlers of `Felt252Dict<T>`: new (missing keys read as 0, or null for `Nullable`), entry get / finalize
 * (the dict is updated in place: a dict is never used after it is consumed), squash, squashed entries
 * (`(key, first value, last value)` with the first value the default).
 */
export const DICT_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  felt252_dict_new: (d, env) => {
    const t = env.registry.get(typeArg(d, 0)).info;
    const zero: Value = t.kind === 'wrapper' && t.wrapper === 'Nullable' ? null : 0n;
    return (a, out) => {
      out[0] = a[0]!;
      out[1] = { dict: new Map(), zero } satisfies DictValue;
      return 0;
    };
  },
  felt252_dict_entry_get: () => (a, out) => {
    const dict = a[0] as DictValue;
    const key = big(a[1]);
    out[0] = { entryOf: dict, key } satisfies DictEntryValue;
    out[1] = dict.dict.has(key) ? dict.dict.get(key)! : dict.zero;
    return 0;
  },
  felt252_dict_entry_finalize: () => (a, out) => {
    const entry = a[0] as DictEntryValue;
    entry.entryOf.dict.set(entry.key, a[1]!);
    out[0] = entry.entryOf;
    return 0;
  },
  felt252_dict_squash: () => (a, out) => {
    if (a.length !== 4) throw new SierraRunError(`felt252_dict_squash: expected 4 arguments, got ${a.length}`);
    out[0] = a[0]!;
    out[1] = a[1]!;
    out[2] = a[2]!;
    out[3] = a[3]!;
    return 0;
  },
  squashed_felt252_dict_entries: () => (a, out) => {
    const dict = a[0] as DictValue;
    const data: Value[] = [...dict.dict.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([k, v]) => [k, dict.zero, v]);
    out[0] = { data, start: 0, end: data.length };
    return 0;
  },
};
