// Felt252Dict (insert, get, missing keys read 0, overwrite; squashed on drop), Nullable and u8 bitwise ops.
// Results are returned as a tuple of felts.
use core::nullable::{FromNullableResult, match_nullable};

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let mut d: Felt252Dict<u64> = Default::default();
    d.insert(1, 100);
    d.insert(2, 200);
    d.insert(1, 150);
    let mut i: felt252 = 10;
    while i != 20 {
        d.insert(i, d.get(i - 1) + 1);
        i += 1;
    };
    let r0: felt252 = d.get(1).into();
    let r1: felt252 = d.get(2).into();
    let r2: felt252 = d.get(3).into();
    let r3: felt252 = d.get(19).into();
    let n: Nullable<felt252> = NullableTrait::new(77);
    let r4: felt252 = match match_nullable(n) {
        FromNullableResult::Null => 0,
        FromNullableResult::NotNull(v) => v.unbox(),
    };
    let x: u8 = 0b1100;
    let y: u8 = 0b1010;
    let r5: felt252 = (x & y).into();
    let r6: felt252 = (x | y).into();
    let r7: felt252 = (x ^ y).into();
    (r0, r1, r2, r3, r4, r5, r6, r7)
}
