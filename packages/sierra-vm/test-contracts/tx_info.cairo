// A Starknet contract whose `__execute__` returns what the execution info shows it (caller, transaction version,
// account, hash, nonce, max fee, the number of call felts, then the signature), for the meta_tx_v0_syscall tests
// (compiled by scripts/compileTestContracts.mjs).
#[starknet::contract]
mod tx_info {
    use starknet::get_execution_info;

    #[storage]
    struct Storage {}

    #[external(v0)]
    fn __execute__(self: @ContractState, calls: Array<felt252>) -> Array<felt252> {
        let info = get_execution_info().unbox();
        let tx = info.tx_info.unbox();
        let mut out = array![
            info.caller_address.into(),
            tx.version,
            tx.account_contract_address.into(),
            tx.transaction_hash,
            tx.nonce,
            tx.max_fee.into(),
            calls.len().into(),
        ];
        let mut signature = tx.signature;
        loop {
            match signature.pop_front() {
                Option::Some(s) => out.append(*s),
                Option::None => { break; },
            }
        };
        out
    }
}
