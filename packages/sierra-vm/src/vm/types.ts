import type { LibfuncDeclaration, SierraProgram } from '../types.js';

/**
 * A runtime value of the interpreter.
 *
 * - `bigint`: felt252 (in `[0, P)`), unsigned and signed integers (signed ones as negative bigints), bounded ints,
 *   the gas counter (GasBuiltin), class hashes, contract and storage addresses, bytes31;
 * - `null`: builtins other than gas (RangeCheck, Bitwise, Pedersen…), `Uninitialized<T>`, a null `Nullable<T>`;
 * - `Value[]`: a struct (its members in order; a zero-sized struct is `[]`);
 * - {@link EnumValue}: an enum (bool is `Enum<ut@bool, Unit, Unit>`: `{ tag: 0 | 1, value: [] }`);
 * - {@link ArrayValue}: an `Array<T>` or a `Span<T>`'s inner snapshot.
 *
 * `Box<T>`, `Snapshot<T>`, `NonZero<T>` and a non-null `Nullable<T>` are their inner value.
 */
export type Value = bigint | null | Value[] | EnumValue | ArrayValue | DictValue | DictEntryValue;

/** An enum value: the variant index and the variant's value. */
export interface EnumValue {
  readonly tag: number;
  readonly value: Value;
}

/**
 * An array: a view `[start, end)` of a buffer. Views share buffers (snapshots, pops, slices); appending pushes to
 * the buffer only when the view ends at its end, and copies otherwise, so no other view ever sees the change.
 */
export interface ArrayValue {
  readonly data: Value[];
  readonly start: number;
  readonly end: number;
}

/** A `Felt252Dict<T>` (and its entries while borrowed): key to value; a missing key reads as the type's zero. */
export interface DictValue {
  readonly dict: Map<bigint, Value>;
  /** The value a missing key holds (`0` of the value type, or null for `Nullable`). */
  readonly zero: Value;
}

/** A `Felt252DictEntry<T>`: the dict it was taken from and its key (the dict is updated when it is finalized). */
export interface DictEntryValue {
  readonly entryOf: DictValue;
  readonly key: bigint;
}

/** An event emitted with `emit_event_syscall`. */
export interface EmittedEvent {
  keys: bigint[];
  data: bigint[];
}

/** What the interpreter knows of a concrete type. */
export type TypeInfo =
  | { kind: 'felt252' }
  | { kind: 'int'; bits: number; signed: boolean; min: bigint; max: bigint }
  | { kind: 'boundedInt'; min: bigint; max: bigint }
  | { kind: 'struct'; members: number[] }
  | { kind: 'enum'; variants: number[] }
  | { kind: 'array'; element: number }
  | { kind: 'wrapper'; wrapper: 'Box' | 'Snapshot' | 'NonZero' | 'Nullable' | 'Uninitialized'; inner: number }
  | { kind: 'const'; inner: number; args: import('../types.js').GenericArg[] }
  | { kind: 'builtin'; name: string }
  | { kind: 'gas' }
  | { kind: 'dict'; value: number }
  | { kind: 'dictEntry'; value: number }
  | { kind: 'other'; genericId: string };

/** A concrete type with its {@link TypeInfo} and layout. */
export interface TypeEntry {
  /** The concrete type id. */
  id: number;
  genericId: string;
  info: TypeInfo;
  /** Size in Cairo memory cells (felts), as the compiler lays the type out (enums: 1 tag cell + largest variant). */
  size: number;
}

/** The concrete types of a program, by id. */
export interface TypeRegistry {
  readonly types: readonly TypeEntry[];
  /** The entry of a concrete type id; throws if undeclared. */
  get(id: number): TypeEntry;
}

/** Mutable state of one run that libfuncs may read or change. */
export interface RunContext {
  /** Gas of each statement run (default `STATEMENT_GAS`, 100; see {@link RunOptions.statementGasCost}). */
  readonly statementGasCost?: number;
  /** Contract storage (address domain 0) read and written by the storage syscalls. */
  readonly storage: Map<bigint, bigint>;
  /** Events emitted by `emit_event_syscall`, in order. */
  readonly events: EmittedEvent[];
  /** What `get_execution_info*_syscall` returns. */
  readonly executionInfo: ExecutionInfoOptions;
  /** Answers `call_contract_syscall` and `library_call_syscall` (see {@link RunOptions.callContract}). */
  readonly callContract?: CallContractHandler;
  /** Messages sent with `send_message_to_l1_syscall`, in order. */
  readonly messages: { toAddress: bigint; payload: bigint[] }[];
  /** Class hashes passed to `replace_class_syscall`, in order. */
  readonly replacedClasses: bigint[];
  /** When set, every syscall is answered by this host instead of the fields above (see {@link StarknetHost}). */
  readonly host?: StarknetHost;
}

/**
 * Thrown by a {@link StarknetHost} method to make the syscall fail: the syscall then takes its error branch with
 * {@link data} as the revert reason felts (what `unwrap_syscall` panics with), and the contract may handle it.
 */
export class SyscallFailure extends Error {
  /** The revert reason felts returned to the contract. */
  readonly data: bigint[];

  constructor(data: readonly bigint[], message = 'syscall failed') {
    super(message);
    this.name = 'SyscallFailure';
    this.data = [...data];
  }
}

/**
 * The gas of a nested call (`call_contract`, `library_call`, `deploy`, `meta_tx_v0`): the caller's counter after the
 * syscall's own cost is `available` to the callee; the host sets `used` to what the callee consumed (all of it when
 * the callee ran out of gas), also when it fails, and the syscall takes that from the caller's counter.
 */
export interface CallGas {
  readonly available: bigint;
  used: bigint;
}

/**
 * The Starknet state and call machinery a contract's syscalls reach, for one executing contract (storage, events
 * and messages are those of that contract). Every method is synchronous; a method may throw {@link SyscallFailure}
 * to fail the syscall with a revert reason. Any other exception aborts the whole run.
 */
export interface StarknetHost {
  /** `storage_read_syscall`: the value at `key` (0 if never written) of the executing contract. */
  storageRead(addressDomain: bigint, key: bigint): bigint;
  /** `storage_write_syscall`. */
  storageWrite(addressDomain: bigint, key: bigint, value: bigint): void;
  /** `emit_event_syscall`. */
  emitEvent(keys: bigint[], data: bigint[]): void;
  /**
   * `call_contract_syscall`: the callee's return data (throw {@link SyscallFailure} when it fails). `gas` is the
   * callee's budget; set `gas.used` to its consumption (a host that ignores it makes nested calls free).
   */
  callContract(address: bigint, selector: bigint, calldata: bigint[], gas?: CallGas): bigint[];
  /** `library_call_syscall`: runs `classHash`'s entry point in the executing contract's context. */
  libraryCall(classHash: bigint, selector: bigint, calldata: bigint[], gas?: CallGas): bigint[];
  /** `deploy_syscall`: deploys and runs the constructor; the new address and the constructor's return data. */
  deploy(
    classHash: bigint,
    salt: bigint,
    calldata: bigint[],
    deployFromZero: boolean,
    gas?: CallGas,
  ): { address: bigint; retdata: bigint[] };
  /** `replace_class_syscall`: the executing contract's class becomes `classHash`. */
  replaceClass(classHash: bigint): void;
  /** `get_execution_info*_syscall`: the execution info (the v1, v2 or v3 shape takes the fields it has). */
  executionInfo(): ExecutionInfoOptions;
  /** `get_block_hash_syscall`: the hash of block `blockNumber`. */
  getBlockHash(blockNumber: bigint): bigint;
  /** `get_class_hash_at_syscall`: the class hash of the contract at `address`. */
  getClassHashAt(address: bigint): bigint;
  /** `send_message_to_l1_syscall`. */
  sendMessageToL1(toAddress: bigint, payload: bigint[]): void;
  /**
   * `meta_tx_v0_syscall`: runs the entry point `selector` (`__execute__`) of the contract at `address` as a version 0
   * meta transaction (caller 0, the given signature, version 0, the version 0 transaction hash, for it and the calls
   * it makes); its return data. Without it the syscall fails with 'SYSCALL_NOT_SUPPORTED'.
   */
  metaTxV0?(address: bigint, selector: bigint, calldata: bigint[], signature: bigint[], gas?: CallGas): bigint[];
}

/**
 * Answers a `call_contract_syscall` (`kind: 'call'`, `target` the contract address) or a `library_call_syscall`
 * (`kind: 'library'`, `target` the class hash): the returned felts, or `{ revert }` with the revert reason felts.
 */
export type CallContractHandler = (call: {
  kind: 'call' | 'library';
  target: bigint;
  selector: bigint;
  calldata: bigint[];
}) => bigint[] | { revert: bigint[] };

/** The fields of the execution info the syscalls return (missing ones, and all others, are 0 or empty). */
export interface ExecutionInfoOptions {
  callerAddress?: bigint;
  contractAddress?: bigint;
  entryPointSelector?: bigint;
  blockNumber?: bigint;
  blockTimestamp?: bigint;
  sequencerAddress?: bigint;
  version?: bigint;
  accountAddress?: bigint;
  transactionHash?: bigint;
  chainId?: bigint;
  nonce?: bigint;
  /** TxInfo `max_fee` (0 for v3 transactions). */
  maxFee?: bigint;
  signature?: readonly bigint[];
  /** v2/v3: the resource bounds (`resource` is the short string `L1_GAS`, `L2_GAS` or `L1_DATA`). */
  resourceBounds?: readonly { resource: bigint; maxAmount: bigint; maxPricePerUnit: bigint }[];
  tip?: bigint;
  paymasterData?: readonly bigint[];
  /** v2/v3: 0 for L1, 1 for L2. */
  nonceDataAvailabilityMode?: bigint;
  feeDataAvailabilityMode?: bigint;
  accountDeploymentData?: readonly bigint[];
  /** v3 only. */
  proofFacts?: readonly bigint[];
}

/**
 * A libfunc's behaviour: reads its inputs, writes its outputs to `out` (from index 0) and returns the index of the
 * branch taken. Never allocates `out`; values it returns may share structure with its inputs (values are immutable).
 */
export type LibfuncHandler = (args: readonly Value[], out: Value[], ctx: RunContext) => number;

/** Builds the handler of one concrete libfunc (or throws `SierraRunError` if its generic args are unsupported). */
export type HandlerFactory = (decl: LibfuncDeclaration, env: LibfuncEnv) => LibfuncHandler;

/** What a handler factory may consult. */
export interface LibfuncEnv {
  readonly program: SierraProgram;
  readonly registry: TypeRegistry;
}

/** Options of {@link import('./runFunction.js').runFunction}. */
export interface RunOptions {
  /**
   * The gas given to the function's `GasBuiltin` parameter (default 10^9). Cost model (README, "Gas model"): every
   * statement run costs {@link statementGasCost}, libfuncs using builtins add their builtin's gas, each syscall takes
   * its cost from the counter passed to it ('Out of gas' in its error branch when the counter cannot pay). The
   * statements' gas is settled from the counter at each `withdraw_gas` (its failure branch when the counter cannot
   * pay: the compiled code then panics with 'Out of gas') and before each syscall; the rest when the function
   * returns ({@link RunResult.outOfGas} when the counter cannot pay it).
   */
  availableGas?: bigint | number;
  /** Gas of one statement (default 100, one Cairo step). */
  statementGasCost?: number;
  /** Stop with a `SierraRunError` after this many statements (default 10^8). */
  maxSteps?: number;
  /**
   * Contract storage for `storage_read_syscall` / `storage_write_syscall` (address → value, missing reads 0). It is
   * updated in place, so consecutive runs sharing it see each other's writes. Default: a new empty map.
   */
  storage?: Map<bigint, bigint>;
  /** What `get_execution_info*_syscall` returns (default: all zeros). */
  executionInfo?: ExecutionInfoOptions;
  /** Answers contract and library calls; without it they revert with 'CALL_CONTRACT_NOT_SUPPORTED'. */
  callContract?: CallContractHandler;
  /**
   * Answers every syscall instead of {@link storage}, {@link executionInfo} and {@link callContract} (events,
   * messages and replaced classes then go to the host only). Without it, deploy, get_block_hash and
   * get_class_hash_at fail with 'SYSCALL_NOT_SUPPORTED'.
   */
  host?: StarknetHost;
  /** Names of the user functions (id → name), to call a function by name (e.g. from the debug info). */
  funcNames?: ReadonlyMap<number, string>;
}

/** A panic: the panic data felts and the short strings they hold. */
export interface PanicInfo {
  data: bigint[];
  /**
   * {@link data} read as the runner prints it: each serialized `ByteArray` (from `panic!`) as its text, each other
   * felt as its short string when it is one (printable ASCII), else its `0x` hex.
   */
  messages: string[];
}

/** The result of {@link import('./runFunction.js').runFunction}. */
export interface RunResult {
  /** All returned values, builtins and gas included, in the signature's order. */
  returnValues: Value[];
  /** The returned values without builtins and gas (the user-visible results). */
  values: Value[];
  /** The concrete type ids of {@link values}. */
  valueTypes: number[];
  /** Set when the function returned a `PanicResult` `Err`. */
  panic?: PanicInfo;
  /**
   * Gas left in the returned `GasBuiltin` (if the function has one), after the gas of the statements run since the
   * last settlement is taken; 0 when that could not be paid ({@link outOfGas}).
   */
  gasLeft?: bigint;
  /** The gas counter could not pay the statements run since the last settlement when the function returned. */
  outOfGas?: boolean;
  /** Statements executed. */
  steps: number;
  /** Events emitted, in order. */
  events: EmittedEvent[];
  /** L2 → L1 messages sent, in order. */
  messages: { toAddress: bigint; payload: bigint[] }[];
  /** Class hashes the contract replaced its class with (`replace_class_syscall`), in order. */
  replacedClasses: bigint[];
}
