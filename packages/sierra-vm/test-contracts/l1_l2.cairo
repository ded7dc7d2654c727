// A Starknet contract for the L1 <-> L2 messaging tests (compiled by scripts/compileTestContracts.mjs): its L1 handler
// `deposit` credits a user with the amount a message from L1 carries, `withdraw` debits it and sends a message to an
// L1 address (`[user, amount]`), `get_balance` reads it.
#[starknet::contract]
mod l1_l2 {
    use starknet::SyscallResultTrait;
    use starknet::storage::{Map, StorageMapReadAccess, StorageMapWriteAccess};
    use starknet::syscalls::send_message_to_l1_syscall;

    #[storage]
    struct Storage {
        balances: Map<felt252, felt252>,
    }

    #[l1_handler]
    fn deposit(ref self: ContractState, from_address: felt252, user: felt252, amount: felt252) {
        assert(amount != 0, 'deposit of nothing');
        let balance = self.balances.read(user);
        self.balances.write(user, balance + amount);
    }

    #[external(v0)]
    fn withdraw(ref self: ContractState, user: felt252, amount: felt252, l1_recipient: felt252) {
        let balance = self.balances.read(user);
        let have: u256 = balance.into();
        let want: u256 = amount.into();
        assert(want <= have, 'insufficient balance');
        self.balances.write(user, balance - amount);
        send_message_to_l1_syscall(l1_recipient, array![user, amount].span()).unwrap_syscall();
    }

    #[external(v0)]
    fn get_balance(self: @ContractState, user: felt252) -> felt252 {
        self.balances.read(user)
    }
}
