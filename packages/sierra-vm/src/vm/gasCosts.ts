// The interpreter's gas model: approximate, documented costs (see the README's "Gas model").
//
// The figures come from Starknet's versioned constants (sequencer repository,
// crates/blockifier/resources/blockifier_versioned_constants_0_14_0.json): `os_constants.step_gas_cost` (100 gas per
// Cairo step), `os_constants.builtin_gas_costs` (gas per builtin instance), `os_constants.entry_point_initial_budget`
// (100 steps) and `os_resources.execute_syscalls` (the Cairo steps and builtin instances the OS spends on each
// syscall). The compiler charges its own, exact, per-branch costs from the CASM it writes; the interpreter has no
// CASM, so it charges per Sierra statement instead (one statement is about one Cairo step).

/** Gas of one Sierra statement: one Cairo step (`step_gas_cost`). */
export const STATEMENT_GAS = 100;

/** Gas per builtin instance (`builtin_gas_costs`). */
export const BUILTIN_GAS = Object.freeze({
  range_check: 70,
  range_check96: 56,
  bitwise: 583,
  pedersen: 4050,
  poseidon: 491,
  ec_op: 4085,
  add_mod: 230,
  mul_mod: 604,
  keccak: 136_189,
});

/** Gas taken from the budget of every entry point before it runs (`entry_point_initial_budget`: 100 steps). */
export const ENTRY_POINT_INITIAL_GAS = 100 * STATEMENT_GAS;

/** steps × 100 + Σ builtin instances × their gas. */
const resources = (steps: number, builtins: Partial<Record<keyof typeof BUILTIN_GAS, number>> = {}): number =>
  steps * STATEMENT_GAS +
  Object.entries(builtins).reduce((s, [b, n]) => s + BUILTIN_GAS[b as keyof typeof BUILTIN_GAS] * (n ?? 0), 0);

/**
 * Gas of each syscall, taken from the gas counter passed to it (`os_resources.execute_syscalls`: steps × 100 + range
 * checks × 70 + …). Calls and deploys also take what the callee uses. `keccak_syscall` takes `keccak` plus
 * `keccakRound` per 17-word block; `deploy_syscall` and `meta_tx_v0_syscall` take `calldataFelt` per calldata felt.
 * SHA-512 is newer than those constants: its block is counted as two SHA-256 blocks (80 rounds on 64-bit words).
 */
export const SYSCALL_GAS = Object.freeze({
  call_contract: resources(903, { range_check: 18 }),
  library_call: resources(879, { range_check: 18 }),
  deploy: resources(1173, { pedersen: 7, range_check: 21 }),
  meta_tx_v0: resources(1301, { pedersen: 9, range_check: 20 }),
  /** Per calldata felt of `deploy` and `meta_tx_v0` (its hash). */
  calldataFelt: resources(8, { pedersen: 1 }),
  emit_event: resources(61, { range_check: 1 }),
  get_block_hash: resources(107, { range_check: 2 }),
  get_class_hash_at: resources(89, { range_check: 1 }),
  get_execution_info: resources(125, { range_check: 2 }),
  keccak: resources(100),
  keccakRound: resources(281, { bitwise: 6, keccak: 1, range_check: 56 }),
  replace_class: resources(106, { range_check: 1 }),
  send_message_to_l1: resources(144, { range_check: 1 }),
  storage_read: resources(90, { range_check: 1 }),
  storage_write: resources(96, { range_check: 1 }),
  sha256_process_block: resources(1867, { bitwise: 1115, range_check: 65 }),
  sha512_process_block: 2 * resources(1867, { bitwise: 1115, range_check: 65 }),
  secp256k1_new: resources(463, { range_check: 35 }),
  secp256k1_add: resources(412, { range_check: 29 }),
  secp256k1_mul: resources(76_507, { range_check: 7045 }),
  secp256k1_get_point_from_x: resources(397, { range_check: 30 }),
  secp256k1_get_xy: resources(209, { range_check: 11 }),
  secp256r1_new: resources(582, { range_check: 49 }),
  secp256r1_add: resources(595, { range_check: 57 }),
  secp256r1_mul: resources(125_346, { range_check: 13_961 }),
  secp256r1_get_point_from_x: resources(516, { range_check: 44 }),
  secp256r1_get_xy: resources(211, { range_check: 11 }),
});

const RC = BUILTIN_GAS.range_check;
/** Builtin gas of the libfuncs that use builtins, by generic id (an approximation of the range checks they make). */
const LIBFUNC_BUILTIN_GAS: Readonly<Record<string, number>> = {
  pedersen: BUILTIN_GAS.pedersen,
  hades_permutation: BUILTIN_GAS.poseidon,
  ec_state_add_mul: BUILTIN_GAS.ec_op,
  bitwise: BUILTIN_GAS.bitwise,
  withdraw_gas: RC,
  withdraw_gas_all: RC,
  downcast: 2 * RC,
  u128s_from_felt252: 3 * RC,
  u256_safe_divmod: 6 * RC,
  u256_sqrt: 6 * RC,
  u256_guarantee_inv_mod_n: 16 * RC,
  u512_safe_divmod_by_u256: 12 * RC,
  bounded_int_div_rem: 3 * RC,
  bounded_int_constrain: RC,
  int_range_try_new: RC,
  array_get: RC,
  array_slice: RC,
  array_snapshot_multi_pop_front: RC,
  array_snapshot_multi_pop_back: RC,
  storage_base_address_from_felt252: 3 * RC,
  contract_address_try_from_felt252: 2 * RC,
  class_hash_try_from_felt252: 2 * RC,
  storage_address_try_from_felt252: 2 * RC,
  bytes31_try_from_felt252: 2 * RC,
  felt252_dict_entry_finalize: 4 * RC,
  u128_mul_guarantee_verify: 9 * RC,
  u96_guarantee_verify: RC,
};
/** Integer families `u8_…`, `i128_…`: builtin gas by operation. */
const INT_OP_GAS: Readonly<Record<string, number>> = {
  overflowing_add: RC,
  overflowing_sub: RC,
  overflowing_add_impl: RC,
  overflowing_sub_impl: RC,
  lt: RC,
  le: RC,
  diff: RC,
  try_from_felt252: 2 * RC,
  safe_divmod: 3 * RC,
  sqrt: 4 * RC,
  bitwise: BUILTIN_GAS.bitwise,
  byte_reverse: 4 * BUILTIN_GAS.bitwise,
};
const INT = /^[ui](?:8|16|32|64|128|256)_(.+)$/;

/**
 * The builtin gas one run of the generic libfunc `genericId` adds to its statement's {@link STATEMENT_GAS}: its
 * builtin instances (Pedersen, Poseidon, EC op, bitwise) and an approximation of the range checks it makes; 0 for
 * libfuncs without builtins. Syscalls are charged separately ({@link SYSCALL_GAS}).
 *
 * @example
 * libfuncBuiltinGas('pedersen'); // 4050
 * libfuncBuiltinGas('u128_overflowing_add'); // 70
 * libfuncBuiltinGas('store_temp'); // 0
 */
export function libfuncBuiltinGas(genericId: string): number {
  if (Object.hasOwn(LIBFUNC_BUILTIN_GAS, genericId)) return LIBFUNC_BUILTIN_GAS[genericId]!;
  const op = INT.exec(genericId)?.[1];
  return op !== undefined && Object.hasOwn(INT_OP_GAS, op) ? INT_OP_GAS[op]! : 0;
}
