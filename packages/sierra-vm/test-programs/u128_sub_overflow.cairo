// u128 subtraction below zero: panics with 'u128_sub Overflow'.
fn sub(a: u128, b: u128) -> u128 {
    a - b
}

fn main() -> u128 {
    let x = sub(0xffffffffffffffffffffffffffffffff, 1);
    let y = sub(x, 0xfffffffffffffffffffffffffffffffe);
    sub(y, 1)
}
