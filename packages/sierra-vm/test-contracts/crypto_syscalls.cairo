// A Starknet contract that reaches the keccak, sha256 and secp256k1/r1 syscalls through the corelib, for the
// sierra-vm and dev chain tests (compiled by scripts/compileTestContracts.mjs; results are checked against
// @noble/hashes, @noble/curves and node:crypto).
use core::keccak::{compute_keccak_byte_array, keccak_u256s_le_inputs};
use core::sha256::compute_sha256_byte_array;
use starknet::secp256_trait::{
    Secp256PointTrait, Secp256Trait, Signature, is_valid_signature, recover_public_key,
};
use starknet::secp256k1::Secp256k1Point;
use starknet::secp256r1::Secp256r1Point;
use starknet::{EthAddress, SyscallResultTrait};

#[starknet::interface]
pub trait ICryptoSyscalls<TContractState> {
    /// keccak256 of the u256 words, each as 32 little-endian bytes; the hash as a little-endian u256.
    fn keccak_words(self: @TContractState, input: Array<u256>) -> u256;
    /// keccak256 of the bytes, as a little-endian u256.
    fn keccak_bytes(self: @TContractState, input: ByteArray) -> u256;
    /// The raw keccak syscall (no padding): Err('Invalid input length') unless a multiple of 17 words.
    fn keccak_raw(self: @TContractState, input: Array<u64>) -> Result<u256, Array<felt252>>;
    /// SHA-256 of the bytes, as eight big-endian u32 words.
    fn sha256_bytes(self: @TContractState, input: ByteArray) -> Array<u32>;
    /// ECDSA verification of (r, s) over msg_hash for the public key (x, y) (secp256k1 when k1, else secp256r1).
    fn verify(self: @TContractState, k1: bool, msg_hash: u256, r: u256, s: u256, x: u256, y: u256) -> bool;
    /// The public key recovered from a signature, as coordinates.
    fn recover(
        self: @TContractState, k1: bool, msg_hash: u256, r: u256, s: u256, y_parity: bool,
    ) -> Option<(u256, u256)>;
    /// The point of abscissa x whose ordinate has the given parity.
    fn point_from_x(self: @TContractState, k1: bool, x: u256, y_parity: bool) -> Option<(u256, u256)>;
    /// The point (x, y) if it is on the curve (panics with 'Invalid argument' when a coordinate is not below p).
    fn new_point(self: @TContractState, k1: bool, x: u256, y: u256) -> Option<(u256, u256)>;
    /// k·G + l·(x, y).
    fn mul_add(self: @TContractState, k1: bool, k: u256, l: u256, x: u256, y: u256) -> (u256, u256);
    /// Panics unless the secp256k1 signature is by the Ethereum address.
    fn verify_eth(
        self: @TContractState, msg_hash: u256, r: u256, s: u256, y_parity: bool, address: EthAddress,
    );
}

fn coordinates<P, +Drop<P>, +Secp256PointTrait<P>>(p: P) -> (u256, u256) {
    p.get_coordinates().unwrap_syscall()
}

fn coordinates_of<P, +Drop<P>, +Secp256PointTrait<P>>(p: Option<P>) -> Option<(u256, u256)> {
    match p {
        Option::Some(p) => Option::Some(coordinates(p)),
        Option::None => Option::None,
    }
}

fn point<P, +Drop<P>, impl Curve: Secp256Trait<P>>(x: u256, y: u256) -> P {
    Curve::secp256_ec_new_syscall(x, y).unwrap_syscall().unwrap()
}

fn verify_on<P, +Drop<P>, impl Curve: Secp256Trait<P>, +Secp256PointTrait<P>>(
    msg_hash: u256, r: u256, s: u256, x: u256, y: u256,
) -> bool {
    is_valid_signature::<P>(msg_hash, r, s, point::<P>(x, y))
}

fn recover_on<P, +Drop<P>, impl Curve: Secp256Trait<P>, +Secp256PointTrait<P>>(
    msg_hash: u256, r: u256, s: u256, y_parity: bool,
) -> Option<(u256, u256)> {
    coordinates_of(recover_public_key::<P>(msg_hash, Signature { r, s, y_parity }))
}

fn from_x_on<P, +Drop<P>, impl Curve: Secp256Trait<P>, +Secp256PointTrait<P>>(
    x: u256, y_parity: bool,
) -> Option<(u256, u256)> {
    coordinates_of(Curve::secp256_ec_get_point_from_x_syscall(x, y_parity).unwrap_syscall())
}

fn new_on<P, +Drop<P>, impl Curve: Secp256Trait<P>, +Secp256PointTrait<P>>(
    x: u256, y: u256,
) -> Option<(u256, u256)> {
    coordinates_of(Curve::secp256_ec_new_syscall(x, y).unwrap_syscall())
}

fn mul_add_on<P, +Drop<P>, impl Curve: Secp256Trait<P>, +Secp256PointTrait<P>>(
    k: u256, l: u256, x: u256, y: u256,
) -> (u256, u256) {
    let g = Curve::get_generator_point().mul(k).unwrap_syscall();
    let q = point::<P>(x, y).mul(l).unwrap_syscall();
    coordinates(g.add(q).unwrap_syscall())
}

#[starknet::contract]
mod crypto_syscalls {
    use starknet::EthAddress;
    use starknet::secp256k1::Secp256k1Point;
    use starknet::secp256r1::Secp256r1Point;
    use starknet::secp256_trait::Signature;
    use core::keccak::{compute_keccak_byte_array, keccak_u256s_le_inputs};
    use core::sha256::compute_sha256_byte_array;

    #[storage]
    struct Storage {}

    #[abi(embed_v0)]
    impl CryptoSyscalls of super::ICryptoSyscalls<ContractState> {
        fn keccak_words(self: @ContractState, input: Array<u256>) -> u256 {
            keccak_u256s_le_inputs(input.span())
        }

        fn keccak_bytes(self: @ContractState, input: ByteArray) -> u256 {
            compute_keccak_byte_array(@input)
        }

        fn keccak_raw(self: @ContractState, input: Array<u64>) -> Result<u256, Array<felt252>> {
            starknet::syscalls::keccak_syscall(input.span())
        }

        fn sha256_bytes(self: @ContractState, input: ByteArray) -> Array<u32> {
            let [a, b, c, d, e, f, g, h] = compute_sha256_byte_array(@input);
            array![a, b, c, d, e, f, g, h]
        }

        fn verify(self: @ContractState, k1: bool, msg_hash: u256, r: u256, s: u256, x: u256, y: u256) -> bool {
            if k1 {
                super::verify_on::<Secp256k1Point>(msg_hash, r, s, x, y)
            } else {
                super::verify_on::<Secp256r1Point>(msg_hash, r, s, x, y)
            }
        }

        fn recover(
            self: @ContractState, k1: bool, msg_hash: u256, r: u256, s: u256, y_parity: bool,
        ) -> Option<(u256, u256)> {
            if k1 {
                super::recover_on::<Secp256k1Point>(msg_hash, r, s, y_parity)
            } else {
                super::recover_on::<Secp256r1Point>(msg_hash, r, s, y_parity)
            }
        }

        fn point_from_x(self: @ContractState, k1: bool, x: u256, y_parity: bool) -> Option<(u256, u256)> {
            if k1 {
                super::from_x_on::<Secp256k1Point>(x, y_parity)
            } else {
                super::from_x_on::<Secp256r1Point>(x, y_parity)
            }
        }

        fn new_point(self: @ContractState, k1: bool, x: u256, y: u256) -> Option<(u256, u256)> {
            if k1 {
                super::new_on::<Secp256k1Point>(x, y)
            } else {
                super::new_on::<Secp256r1Point>(x, y)
            }
        }

        fn mul_add(self: @ContractState, k1: bool, k: u256, l: u256, x: u256, y: u256) -> (u256, u256) {
            if k1 {
                super::mul_add_on::<Secp256k1Point>(k, l, x, y)
            } else {
                super::mul_add_on::<Secp256r1Point>(k, l, x, y)
            }
        }

        fn verify_eth(
            self: @ContractState, msg_hash: u256, r: u256, s: u256, y_parity: bool, address: EthAddress,
        ) {
            starknet::eth_signature::verify_eth_signature(msg_hash, Signature { r, s, y_parity }, address);
        }
    }
}
