// u128 division by zero: panics with 'Division by 0'.
fn div(a: u128, b: u128) -> u128 {
    a / b
}

fn main() -> u128 {
    let x = div(100, 7);
    div(x, x - 14)
}
