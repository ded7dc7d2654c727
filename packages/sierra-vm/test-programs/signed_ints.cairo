// Signed integers: add/sub near the bounds, comparisons, conversions to and from felt252 (negatives wrap mod P).
fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let a: i8 = -100;
    let b: i8 = 27;
    let c: i128 = -170141183460469231731687303715884105727;
    let r0: felt252 = (a - b).into();
    let r1: felt252 = (a + b).into();
    let r2: felt252 = (c - 1).into();
    let r3: felt252 = if a < b { 1 } else { 0 };
    let r4: felt252 = if c == c { 1 } else { 0 };
    let t: Option<i16> = (-300_felt252).try_into();
    let r5: felt252 = match t { Option::Some(v) => v.into(), Option::None => 9999 };
    let t2: Option<i8> = (-300_felt252).try_into();
    let r6: felt252 = match t2 { Option::Some(v) => v.into(), Option::None => 9999 };
    let d: i32 = -7;
    let r7: felt252 = (d * 6).into();
    let r8: felt252 = (d / 2).into();
    (r0, r1, r2, r3, r4, r5, r6, r7, r8)
}
