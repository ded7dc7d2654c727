// Unsigned integers: divmod, wide multiplication, comparisons, conversions, edge values, u256.
// Results are returned as a tuple of felts: the runner prints a returned array as memory addresses.
use core::num::traits::Sqrt;

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let a: u128 = 0xfedcba9876543210fedcba9876543210;
    let b: u128 = 12345;
    let r0: felt252 = (a / b).into();
    let r1: felt252 = (a % b).into();
    let d: u128 = 0x100000000;
    let r2: felt252 = (a / d).into();
    let r3: felt252 = (a % d).into();
    let x: u8 = 255;
    let y: u8 = 254;
    let r4: felt252 = (x - y).into();
    let r5: felt252 = (x / 16).into();
    let r6: felt252 = (x % 16).into();
    let r7: felt252 = if x > y { 1 } else { 0 };
    let r8: felt252 = if x <= y { 1 } else { 0 };
    let r9: felt252 = if x == 255 { 1 } else { 0 };
    let m: u64 = 0xffffffff;
    let r10: felt252 = (m * m).into();
    let s: u32 = 4000000000;
    let r11: felt252 = (s + 294967295).into();
    let w: u256 = a.into() * b.into();
    let r12: felt252 = w.low.into();
    let r13: felt252 = w.high.into();
    let big: u256 = u256 { low: 5, high: 1 };
    let sum = big + w;
    let r14: felt252 = sum.low.into();
    let r15: felt252 = sum.high.into();
    let t: Option<u8> = 300_felt252.try_into();
    let r16: felt252 = match t { Option::Some(v) => v.into(), Option::None => 9999 };
    let t2: Option<u16> = 300_felt252.try_into();
    let r17: felt252 = match t2 { Option::Some(v) => v.into(), Option::None => 9999 };
    let big_square: u128 = 1000000000000000000000000000000;
    let r18: felt252 = big_square.sqrt().into();
    let r19: felt252 = if a < b { 1 } else { 0 };
    let r20: felt252 = if a >= b { 1 } else { 0 };
    (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20)
}
