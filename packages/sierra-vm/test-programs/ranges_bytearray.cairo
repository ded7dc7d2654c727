// for loops over integer ranges, ByteArray (append past 31 bytes, at, rev), u256 and i128 edges.
fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let mut s: u32 = 0;
    for i in 3..10_u32 {
        s += i;
    };
    let r0: felt252 = s.into();
    let mut ba: ByteArray = "hello";
    ba.append(@" world, this is a byte array longer than 31 bytes");
    let r1: felt252 = ba.len().into();
    let r2: felt252 = ba.at(6).unwrap().into();
    let rev = ba.rev();
    let r3: felt252 = rev.at(0).unwrap().into();
    let r4: felt252 = rev.at(ba.len() - 1).unwrap().into();
    let a: u256 = 0xffffffffffffffffffffffffffffffff_u256 * 0x1234567_u256;
    let r5: felt252 = (a / 0x1000_u256).high.into();
    let m: i128 = -170141183460469231731687303715884105728;
    let r6: felt252 = (m + 1).into();
    let r7: felt252 = if m < 0 { 1 } else { 0 };
    (r0, r1, r2, r3, r4, r5, r6, r7)
}
