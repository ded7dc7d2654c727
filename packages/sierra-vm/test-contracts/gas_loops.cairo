// A Starknet contract for the gas model tests of sierra-vm and the dev chain (compiled by
// scripts/compileTestContracts.mjs): a loop that never ends, a bounded loop, a nested call and storage writes.
use starknet::ContractAddress;

#[starknet::interface]
pub trait IGasLoops<TContractState> {
    /// Counts up from `start` until the counter wraps to 0: with start = 1 it never returns ('Out of gas').
    fn spin(self: @TContractState, start: felt252) -> felt252;
    /// A loop of `n` iterations; returns n.
    fn count(self: @TContractState, n: u32) -> u32;
    /// Calls `count(n)` on `target` (call_contract_syscall); returns its result.
    fn call_count(self: @TContractState, target: ContractAddress, n: u32) -> u32;
    /// Calls `spin(1)` on `target`: the callee runs out of gas, and so does this caller.
    fn call_spin(self: @TContractState, target: ContractAddress) -> felt252;
    /// Writes `n` storage slots (one storage_write_syscall each).
    fn write_many(ref self: TContractState, n: u32);
    /// The sum of the slots written by write_many.
    fn total(self: @TContractState) -> u32;
}

#[starknet::contract]
mod gas_loops {
    use starknet::ContractAddress;
    use starknet::storage::{Map, StorageMapReadAccess, StorageMapWriteAccess};
    use super::{IGasLoopsDispatcher, IGasLoopsDispatcherTrait};

    #[storage]
    struct Storage {
        slots: Map<u32, u32>,
        written: u32,
    }

    #[abi(embed_v0)]
    impl GasLoops of super::IGasLoops<ContractState> {
        fn spin(self: @ContractState, start: felt252) -> felt252 {
            let mut i = start;
            loop {
                i += 1;
                if i == 0 {
                    break;
                }
            };
            i
        }

        fn count(self: @ContractState, n: u32) -> u32 {
            let mut i: u32 = 0;
            while i != n {
                i += 1;
            };
            i
        }

        fn call_count(self: @ContractState, target: ContractAddress, n: u32) -> u32 {
            IGasLoopsDispatcher { contract_address: target }.count(n)
        }

        fn call_spin(self: @ContractState, target: ContractAddress) -> felt252 {
            IGasLoopsDispatcher { contract_address: target }.spin(1)
        }

        fn write_many(ref self: ContractState, n: u32) {
            let mut i: u32 = 0;
            while i != n {
                self.slots.write(i, i + 1);
                i += 1;
            };
            self.written.write(n);
        }

        fn total(self: @ContractState) -> u32 {
            let n = self.written.read();
            let mut sum: u32 = 0;
            let mut i: u32 = 0;
            while i != n {
                sum += self.slots.read(i);
                i += 1;
            };
            sum
        }
    }
}
