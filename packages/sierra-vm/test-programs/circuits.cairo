// Circuits (core::circuit) over the BLS12-381 base field: add, inverse, sub and mul gates, inputs given as
// `[u96; 4]` and as `u384`, outputs read back (also an intermediate gate); a failing inverse (11 modulo 55) takes
// the Err branch; moduli 0 and 1 are refused; a u256 converted to u384.
use core::circuit::{
    AddInputResultTrait, CircuitElement, CircuitInput, CircuitInputs, CircuitModulus, CircuitOutputsTrait,
    EvalCircuitTrait, circuit_add, circuit_inverse, circuit_mul, circuit_sub, u384,
};

fn main() -> (u384, u384, u384, u384, felt252, felt252, felt252, u384) {
    let in1 = CircuitElement::<CircuitInput<0>> {};
    let in2 = CircuitElement::<CircuitInput<1>> {};
    let add = circuit_add(in1, in2);
    let inv = circuit_inverse(add);
    let sub = circuit_sub(inv, in2);
    let mul = circuit_mul(inv, sub);
    let modulus = TryInto::<
        _, CircuitModulus,
    >::try_into(
        [0xb153ffffb9feffffffffaaab, 0x6730d2a0f6b0f6241eabfffe, 0x434bacd764774b84f38512bf, 0x1a0111ea397fe69a4b1ba7b6],
    )
        .unwrap();
    let b = u384 {
        limb0: 0xa2888ae40caa232946c5e7e1,
        limb1: 0xdb18cb2c04b3edd03cc744,
        limb2: 0x741d8ae4fcf5e095d5d00af6,
        limb3: 0x8b3f481e3aaa0f1a09e30ed,
    };
    let outputs = (mul, add, inv)
        .new_inputs()
        .next(
            [0xf97a1aeffb3af00adb22c6bb, 0xa14e3a3f171bac586c55e83f, 0x4fa9ac0fc3688c4f9774b905, 0x17f1d3a73197d7942695638c],
        )
        .next(b)
        .done()
        .eval(modulus)
        .unwrap();

    let in0 = CircuitElement::<CircuitInput<0>> {};
    let out0 = circuit_inverse(in0);
    let m55 = TryInto::<_, CircuitModulus>::try_into([55, 0, 0, 0]).unwrap();
    let failed: felt252 = match (out0,).new_inputs().next([11, 0, 0, 0]).done().eval(m55) {
        Result::Ok(_) => 0,
        Result::Err(_) => 1,
    };
    let one_refused: felt252 = if TryInto::<_, CircuitModulus>::try_into([1, 0, 0, 0]).is_none() {
        1
    } else {
        0
    };
    let zero_refused: felt252 = if TryInto::<_, CircuitModulus>::try_into([0, 0, 0, 0]).is_none() {
        1
    } else {
        0
    };
    let wide: u384 = 0x100000023000000450000006700000089000000ab000000cd000000ef0000000_u256.into();
    (
        outputs.get_output(add),
        outputs.get_output(inv),
        outputs.get_output(sub),
        outputs.get_output(mul),
        failed,
        one_refused,
        zero_refused,
        wide,
    )
}
