// Pedersen and Poseidon hashes and Stark curve operations (new point, from x, add, multiply by a scalar).
// Returned x coordinates of 2P and 3P do not depend on which square root `from_x` picks.
use core::ec::{EcPointTrait, ec_point_unwrap};
use core::pedersen::pedersen;
use core::poseidon::poseidon_hash_span;

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252) {
    let r0 = pedersen(1, 2);
    let r1 = poseidon_hash_span(array![1, 2, 3].span());
    let g = EcPointTrait::new(
        0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca,
        0x5668060aa49730b7be4801df46ec62de53ecd11abe43a32873000c36e8dc1f,
    )
        .unwrap();
    let g5 = g.mul(5);
    let (r2, r3) = ec_point_unwrap(g5.try_into().unwrap());
    let q = EcPointTrait::new_from_x(7).unwrap();
    let q3 = q.mul(3);
    let (r4, _) = ec_point_unwrap(q3.try_into().unwrap());
    let (r5, _) = ec_point_unwrap((q + q).try_into().unwrap());
    (r0, r1, r2, r3, r4, r5)
}
