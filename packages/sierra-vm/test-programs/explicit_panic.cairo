// An explicit panic with several short strings in the panic data, after some work.
fn check(x: u32) -> u32 {
    if x > 10 {
        panic!("x is too large: {}", x);
    }
    x * 2
}

fn main() -> u32 {
    let a = check(4);
    assert(a == 8, 'a should be 8');
    let v = array!['first', 'second'];
    assert(v.len() == 2, 'len');
    check(a + 5)
}
