// Coupons (an experimental compiler feature wasm-cairo does not enable, so no oracle program): a hand-written
// Sierra program buys a coupon, calls a function with it (the coupon is the last argument of coupon_call and is not
// passed to the callee), and refunds another.
import { describe, expect, it } from 'vitest';
import { parseSierraText } from './parseSierraText.js';
import { runFunction } from './runFunction.js';
import { runLoop } from './runLoop.js';
import { unsupportedLibfuncs } from './unsupportedLibfuncs.js';
import { newRunContext } from './newRunContext.js';

const COUPON = 'Coupon<user@test::double>';
const { program, funcNames } = parseSierraText(`
type felt252 = felt252 [storable: true, drop: true, dup: true, zero_sized: false];
type ${COUPON} = ${COUPON} [storable: true, drop: true, dup: false, zero_sized: true];
libfunc coupon_buy<${COUPON}> = coupon_buy<${COUPON}>;
libfunc coupon_call<user@test::double> = coupon_call<user@test::double>;
libfunc coupon_refund<${COUPON}> = coupon_refund<${COUPON}>;
libfunc dup<felt252> = dup<felt252>;
libfunc felt252_add = felt252_add;
libfunc store_temp<felt252> = store_temp<felt252>;

coupon_buy<${COUPON}>() -> ([1]); // 0
coupon_call<user@test::double>([0], [1]) -> ([2]); // 1
coupon_buy<${COUPON}>() -> ([3]); // 2
coupon_refund<${COUPON}>([3]) -> (); // 3
return([2]); // 4
dup<felt252>([0]) -> ([0], [1]); // 5
felt252_add([0], [1]) -> ([2]); // 6
store_temp<felt252>([2]) -> ([2]); // 7
return([2]); // 8

test::main@0([0]: felt252) -> (felt252);
test::double@5([0]: felt252) -> (felt252);
`);

describe('coupons', () => {
  it('are supported', () => {
    expect(unsupportedLibfuncs(program)).toEqual([]);
  });
  it('coupon_call calls the function without the coupon', () => {
    const r = runFunction(program, 'main', [21n], { funcNames });
    expect(r.values).toEqual([42n]);
    expect(r.steps).toBe(9);
    const ctx = newRunContext();
    expect(runLoop(program, 0, [21n], ctx, 100)).toEqual({ returned: [42n], steps: 9, unsettledGas: 900 });
  });
});
