// available_gas: 1000000000
// The benchmark's compute loop (bench/sierra.ts runs `run` with a larger n): felt252 Fibonacci, a u128 linear
// congruential generator modulo 2^31 - 1, a u32 counter; one gas withdrawal per iteration.
#[inline(never)]
fn run(n: u32) -> (felt252, u128) {
    let mut a: felt252 = 0;
    let mut b: felt252 = 1;
    let mut x: u128 = 1;
    let mut i: u32 = 0;
    while i != n {
        let c = a + b;
        a = b;
        b = c;
        x = (x * 48271 + 11) % 2147483647;
        i += 1;
    };
    (b, x)
}

fn main() -> (felt252, u128) {
    run(1000)
}
