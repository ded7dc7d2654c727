// felt252 arithmetic: add, sub (wrapping below zero), mul, div (field inverse), equality and is_zero.
fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let a: felt252 = 123456789;
    let b: felt252 = 987654321;
    let r0: felt252 = a + b;
    let r1: felt252 = a - b;
    let r2: felt252 = a * b;
    let r3: felt252 = a * b * b * b * b * b * b * b;
    let c: felt252 = 0 - 1;
    let r4: felt252 = c + 2;
    let nz: NonZero<felt252> = 7_felt252.try_into().unwrap();
    let r5: felt252 = core::felt252_div(1, nz);
    let r6: felt252 = core::felt252_div(a, nz);
    let r7: felt252 = if a == b { 1 } else { 0 };
    let r8: felt252 = if a - a == 0 { 10 } else { 20 };
    let r9: felt252 = if c == 0 { 30 } else { 40 };
    let r10: felt252 = 'hello';
    (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10)
}
