// Edge cases of libfunc handlers, called directly (the oracle tests cover them through compiled programs).
import { describe, expect, it } from 'vitest';
import { FIELD_PRIME } from '../constants.js';
import type { GenericArg, LibfuncDeclaration } from '../types.js';
import { findHandlerFactory } from './findHandlerFactory.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import type { ArrayValue, Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const { program } = parseSierraText(`
type felt252 = felt252 [storable: true, drop: true, dup: true, zero_sized: false];
type i8 = i8 [storable: true, drop: true, dup: true, zero_sized: false];
type u8 = u8 [storable: true, drop: true, dup: true, zero_sized: false];
type BoundedInt<-3, 3> = BoundedInt<-3, 3> [storable: true, drop: true, dup: true, zero_sized: false];
type Tuple<felt252, felt252> = Struct<ut@Tuple, felt252, felt252> [storable: true, drop: true, dup: true, zero_sized: false];
type Array<felt252> = Array<felt252> [storable: true, drop: true, dup: false, zero_sized: false];
`);
const env = { program, registry: prepareProgram(program).registry };
const ctx = newRunContext();
const types = (...ids: number[]): GenericArg[] => ids.map((id) => ({ kind: 'type', id }));
/** Calls a libfunc: its branch and outputs. */
function call(genericId: string, args: Value[], genericArgs: GenericArg[] = []): [number, Value[]] {
  const decl: LibfuncDeclaration = { id: 0, genericId, genericArgs };
  const out: Value[] = [];
  const branch = findHandlerFactory(genericId)!(decl, env)(args, out, ctx);
  return [branch, out];
}
const view = (xs: Value[]): ArrayValue => ({ data: xs, start: 0, end: xs.length });

describe('integer handlers', () => {
  it('u8 overflowing add/sub wrap into the failure branch', () => {
    expect(call('u8_overflowing_add', [null, 200n, 55n])).toEqual([0, [null, 255n]]);
    expect(call('u8_overflowing_add', [null, 200n, 56n])).toEqual([1, [null, 0n]]);
    expect(call('u8_overflowing_sub', [null, 0n, 1n])).toEqual([1, [null, 255n]]);
  });
  it('i8 add has in-range, underflow and overflow branches', () => {
    expect(call('i8_overflowing_add_impl', [null, -100n, 27n])).toEqual([0, [null, -73n]]);
    expect(call('i8_overflowing_add_impl', [null, -100n, -29n])).toEqual([1, [null, 127n]]);
    expect(call('i8_overflowing_add_impl', [null, 100n, 28n])).toEqual([2, [null, -128n]]);
    expect(call('i8_diff', [null, -1n, 0n])).toEqual([1, [null, 255n]]);
  });
  it('converts from felt252, negative felts to signed', () => {
    expect(call('i8_try_from_felt252', [null, FIELD_PRIME - 128n])).toEqual([0, [null, -128n]]);
    expect(call('i8_try_from_felt252', [null, FIELD_PRIME - 129n])[0]).toBe(1);
    expect(call('u8_try_from_felt252', [null, 256n])[0]).toBe(1);
    expect(call('i8_to_felt252', [-1n])).toEqual([0, [FIELD_PRIME - 1n]]);
    expect(call('downcast', [null, FIELD_PRIME - 3n], types(0, 3))).toEqual([0, [null, -3n]]);
    expect(call('downcast', [null, 4n], types(0, 3))[0]).toBe(1);
    expect(call('upcast', [-3n], types(3, 0))).toEqual([0, [FIELD_PRIME - 3n]]);
  });
  it('u128 wide helpers', () => {
    const max = (1n << 128n) - 1n;
    expect(call('u128_guarantee_mul', [max, max])[1].slice(0, 2)).toEqual([max - 1n, 1n]);
    expect(call('u128s_from_felt252', [null, 5n])).toEqual([0, [null, 5n]]);
    expect(call('u128s_from_felt252', [null, (7n << 128n) + 9n])).toEqual([1, [null, 7n, 9n]]);
    expect(call('u256_safe_divmod', [null, [10n, 1n], [3n, 0n]])[1].slice(1, 3)).toEqual([
      [((1n << 128n) + 10n) / 3n, 0n],
      [((1n << 128n) + 10n) % 3n, 0n],
    ]);
    expect(call('u128_byte_reverse', [null, 0x0102n])[1][1]).toBe(0x0201n << 112n);
    expect(call('u64_sqrt', [null, 99n])[1][1]).toBe(9n);
  });
  it('bounded ints and ranges', () => {
    expect(call('bounded_int_constrain', [null, -1n], [...types(3), { kind: 'value', value: 0n }])[0]).toBe(0);
    expect(call('bounded_int_trim_min', [-3n], types(3))[0]).toBe(0);
    expect(call('bounded_int_trim_max', [2n], types(3))).toEqual([1, [2n]]);
    expect(call('int_range_try_new', [null, 2n, 4n])).toEqual([0, [null, [2n, 4n]]]);
    expect(call('int_range_try_new', [null, 5n, 4n])[0]).toBe(1);
    expect(call('int_range_pop_front', [[2n, 4n]])).toEqual([1, [[3n, 4n], 2n]]);
    expect(call('int_range_pop_front', [[4n, 4n]])[0]).toBe(0);
  });
});

describe('array handlers', () => {
  it('keeps snapshots and older views unchanged when the array grows', () => {
    const items = (v: Value | undefined): Value[] => {
      const x = v as ArrayValue;
      return x.data.slice(x.start, x.end);
    };
    const [, [a1]] = call('array_append', [view([]), 1n]);
    const [, [a2]] = call('array_append', [a1!, 2n]);
    const [, [snap, owned]] = call('snapshot_take', [a2!]);
    const [, [a3]] = call('array_append', [owned!, 3n]);
    expect(items(snap)).toEqual([1n, 2n]);
    expect(items(a3)).toEqual([1n, 2n, 3n]);
    const [, [b]] = call('array_append', [a1!, 9n]); // a1 no longer ends at its buffer's end: copied
    expect(items(b)).toEqual([1n, 9n]);
    expect(items(a3)).toEqual([1n, 2n, 3n]);
    expect(call('array_len', [snap!])[1]).toEqual([2n]);
  });
  it('gets, slices and multi-pops within bounds only', () => {
    const a = view([1n, 2n, 3n]);
    expect(call('array_get', [null, a, 2n])).toEqual([0, [null, 3n]]);
    expect(call('array_get', [null, a, 3n])[0]).toBe(1);
    expect(call('array_slice', [null, a, 1n, 2n])[1][1]).toEqual({ data: a.data, start: 1, end: 3 });
    expect(call('array_slice', [null, a, 2n, 2n])[0]).toBe(1);
    expect(call('array_snapshot_multi_pop_back', [null, a], types(0, 4))[1].slice(1)).toEqual([
      { data: a.data, start: 0, end: 1 },
      [2n, 3n],
    ]);
    expect(call('array_snapshot_pop_back', [view([])])[0]).toBe(1);
  });
});

describe('dict handlers', () => {
  it('reads zero for missing keys and keeps finalized values', () => {
    const [, [, dict]] = call('felt252_dict_new', [null], types(0));
    const [, [entry, v0]] = call('felt252_dict_entry_get', [dict!, 7n]);
    expect(v0).toBe(0n);
    const [, [dict2]] = call('felt252_dict_entry_finalize', [entry!, 42n]);
    expect(call('felt252_dict_entry_get', [dict2!, 7n])[1][1]).toBe(42n);
  });
});
