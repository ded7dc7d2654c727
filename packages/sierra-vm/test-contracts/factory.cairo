// A factory: deploys children of any declared class with deploy_syscall (from its own address, so a child's address
// depends on the factory), remembers the last one and counts them, and emits ChildDeployed. Used by the gateway's
// end-to-end tests of users' own contracts; compiled by packages/sierra-vm/scripts/compileTestContracts.mjs (wasm-cairo).
#[starknet::interface]
pub trait IFactory<T> {
    fn deploy_child(
        ref self: T, class_hash: starknet::ClassHash, salt: felt252, calldata: Span<felt252>,
    ) -> starknet::ContractAddress;
    fn last_child(self: @T) -> starknet::ContractAddress;
    fn children(self: @T) -> u32;
}

#[starknet::contract]
mod Factory {
    use starknet::{ClassHash, ContractAddress, SyscallResultTrait};
    use starknet::syscalls::deploy_syscall;
    use starknet::storage::{StoragePointerReadAccess, StoragePointerWriteAccess};

    #[storage]
    struct Storage {
        last: ContractAddress,
        count: u32,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        ChildDeployed: ChildDeployed,
    }

    #[derive(Drop, starknet::Event)]
    struct ChildDeployed {
        #[key]
        class_hash: ClassHash,
        address: ContractAddress,
    }

    #[abi(embed_v0)]
    impl FactoryImpl of super::IFactory<ContractState> {
        fn deploy_child(
            ref self: ContractState, class_hash: ClassHash, salt: felt252, calldata: Span<felt252>,
        ) -> ContractAddress {
            let (address, _) = deploy_syscall(class_hash, salt, calldata, false).unwrap_syscall();
            self.last.write(address);
            self.count.write(self.count.read() + 1);
            self.emit(ChildDeployed { class_hash, address });
            address
        }

        fn last_child(self: @ContractState) -> ContractAddress {
            self.last.read()
        }

        fn children(self: @ContractState) -> u32 {
            self.count.read()
        }
    }
}
