// available_gas: 200000
// A long loop that runs out of gas: panics with 'Out of gas'.
fn count(n: felt252, acc: felt252) -> felt252 {
    if n == 0 {
        acc
    } else {
        count(n - 1, acc + n)
    }
}

fn main() -> felt252 {
    count(1000000000, 0)
}
