// u8 addition that overflows: panics with 'u8_add Overflow'.
fn add(a: u8, b: u8) -> u8 {
    a + b
}

fn main() -> u8 {
    let x = add(100, 55);
    add(x, 101)
}
