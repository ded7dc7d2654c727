// Arrays and spans: append, len, at/get, pop_front, slice, snapshots, sum over a span, array of structs.
// Results are returned as a tuple of felts: the runner prints a returned array as memory addresses.
#[derive(Copy, Drop)]
struct P {
    x: u32,
    y: u32,
}

fn sum(mut s: Span<u32>) -> u32 {
    let mut acc: u32 = 0;
    loop {
        match s.pop_front() {
            Option::Some(v) => { acc += *v; },
            Option::None => { break; },
        };
    };
    acc
}

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let mut a: Array<u32> = ArrayTrait::new();
    let mut i: u32 = 0;
    while i != 10 {
        a.append(i * 3);
        i += 1;
    };
    let r0: felt252 = a.len().into();
    let r1: felt252 = (*a.at(4)).into();
    let sp = a.span();
    let r2: felt252 = sum(sp).into();
    let sl = sp.slice(2, 5);
    let r3: felt252 = sl.len().into();
    let r4: felt252 = sum(sl).into();
    let r5: felt252 = match a.get(20) {
        Option::Some(_) => 1,
        Option::None => 0,
    };
    let first = a.pop_front().unwrap();
    let r6: felt252 = first.into();
    let r7: felt252 = a.len().into();
    let mut ps: Array<P> = ArrayTrait::new();
    ps.append(P { x: 1, y: 2 });
    ps.append(P { x: 3, y: 4 });
    let p = *ps.at(1);
    let r8: felt252 = (p.x * 10 + p.y).into();
    let mut back = sp;
    let r9: felt252 = match back.pop_back() {
        Option::Some(v) => (*v).into(),
        Option::None => 0,
    };
    let r10: felt252 = back.len().into();
    let empty: Array<u32> = ArrayTrait::new();
    let r11: felt252 = if empty.is_empty() { 1 } else { 0 };
    (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11)
}
