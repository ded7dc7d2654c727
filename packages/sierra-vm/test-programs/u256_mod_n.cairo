// u256 multiplication and division modulo n (core::math::u256_mul_mod_n / u256_div_mod_n: u256 wide
// multiplication, u512 division by a u256, and u256_guarantee_inv_mod_n for the division).
use core::math::{u256_div_mod_n, u256_mul_mod_n};

fn main() -> (felt252, felt252, felt252, felt252, felt252) {
    let n: NonZero<u256> = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141_u256
        .try_into()
        .unwrap();
    let a: u256 = 0x3b2d8a1f4c5e6d7089abcdef0123456789fedcba9876543210aabbccddeeff11;
    let m = u256_mul_mod_n(a, a, n);
    let q = u256_div_mod_n(7, a, n).unwrap();
    let none: felt252 = if u256_div_mod_n(1, 6, 9_u256.try_into().unwrap()).is_none() {
        1
    } else {
        0
    };
    (m.low.into(), m.high.into(), q.low.into(), q.high.into(), none)
}
