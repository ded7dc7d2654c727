// available_gas: 4000000000
// Recursion and loops: fib, factorial with a loop, a while-style counter, nested calls.
fn fib(n: u32) -> u64 {
    if n < 2 {
        n.into()
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

fn fact(n: u128) -> u128 {
    let mut acc: u128 = 1;
    let mut i: u128 = 1;
    loop {
        if i > n {
            break;
        }
        acc = acc * i;
        i = i + 1;
    };
    acc
}

fn collatz(mut n: u64) -> u32 {
    let mut steps: u32 = 0;
    while n != 1 {
        if n % 2 == 0 {
            n = n / 2;
        } else {
            n = 3 * n + 1;
        }
        steps += 1;
    };
    steps
}

fn main() -> (u64, u128, u32, felt252) {
    let mut s: felt252 = 0;
    let mut i: felt252 = 0;
    while i != 50 {
        s = s + i * i;
        i = i + 1;
    };
    (fib(15), fact(30), collatz(27), s)
}
