// u256 inverse modulo n (u256_guarantee_inv_mod_n through core::math::u256_inv_mod): an inverse modulo the
// secp256k1 group order, a small one, and the cases without inverse (gcd > 1, n = 1, 0).
use core::math::u256_inv_mod;

fn flag(b: bool) -> felt252 {
    if b {
        1
    } else {
        0
    }
}

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252) {
    let n: NonZero<u256> = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141_u256
        .try_into()
        .unwrap();
    let a: u256 = 0x3b2d8a1f4c5e6d7089abcdef0123456789fedcba9876543210aabbccddeeff11;
    let inv: u256 = u256_inv_mod(a, n).unwrap().into();
    let small: u256 = u256_inv_mod(29, 24_u256.try_into().unwrap()).unwrap().into();
    (
        inv.low.into(),
        inv.high.into(),
        small.low.into(),
        flag(u256_inv_mod(8, 24_u256.try_into().unwrap()).is_none()),
        flag(u256_inv_mod(7, 1_u256.try_into().unwrap()).is_none()),
        flag(u256_inv_mod(0, 7_u256.try_into().unwrap()).is_none()),
    )
}
