/** Shapes shared by the native (TypeScript-implemented) contracts. */

/** A failure inside contract execution; its message becomes the revert reason / CONTRACT_ERROR text. */
export class ExecutionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecutionFailure';
  }
}

/** Information about the transaction being executed (zeros for plain calls). */
export interface TxInfo {
  hash: bigint;
  version: bigint;
  account: bigint;
  nonce: bigint;
  signature: readonly bigint[];
  chainId: bigint;
  /** v1/v2 transactions: the max fee. */
  maxFee?: bigint;
  /** v3 transactions: the fee fields, as a Sierra contract reads them from `get_execution_info`. */
  resourceBounds?: {
    l1_gas: { max_amount: bigint; max_price_per_unit: bigint };
    l2_gas: { max_amount: bigint; max_price_per_unit: bigint };
    l1_data_gas?: { max_amount: bigint; max_price_per_unit: bigint };
  };
  tip?: bigint;
  paymasterData?: readonly bigint[];
  nonceDA?: 'L1' | 'L2';
  feeDA?: 'L1' | 'L2';
  accountDeploymentData?: readonly bigint[];
}

/** Everything a native entry point may use. */
export interface CallContext {
  /** Address of the executing contract. */
  readonly self: bigint;
  /** Address of the caller (0 for the protocol). */
  readonly caller: bigint;
  readonly tx: TxInfo;
  readonly blockNumber: number;
  readonly blockTimestamp: number;
  readStorage(key: bigint): bigint;
  writeStorage(key: bigint, value: bigint): void;
  emit(keys: bigint[], data: bigint[]): void;
  /** Call another contract (a nested call). */
  call(to: bigint, selector: bigint, calldata: bigint[]): bigint[];
  /** Deploy a contract (the deploy syscall); returns its address. */
  deploy(classHash: bigint, salt: bigint, calldata: bigint[], deployFromZero: boolean): bigint;
  /** Replace the class of the executing contract (the replace_class syscall). */
  replaceClass(classHash: bigint): void;
  /** The native class name of a class hash, if it is native. */
  nativeNameOf(classHash: bigint): string | undefined;
}

/** A native entry point: calldata in, return data out. */
export type EntryPoint = (ctx: CallContext, calldata: readonly bigint[]) => bigint[];

/** One parameter of an ABI function: [name, cairo type]. */
export type AbiParam = readonly [string, string];

/** An external function of a native class with its ABI signature. */
export interface NativeFunction {
  name: string;
  inputs: readonly AbiParam[];
  outputs: readonly string[];
  mutability: 'view' | 'external';
  run: EntryPoint;
}

/** A class whose behaviour is implemented in TypeScript. */
export interface NativeClassDef {
  /** Stable unique name, e.g. `nodegate::erc20::ERC20`. */
  name: string;
  /** Interface name used in the ABI. */
  interfaceName: string;
  functions: readonly NativeFunction[];
  constructorInputs: readonly AbiParam[];
  construct?: EntryPoint;
  l1Handlers?: readonly NativeFunction[];
  /** ABI event definitions (`kind: "struct"` members as [name, type, "key" | "data"]). */
  events?: readonly { name: string; members: readonly (readonly [string, string, 'key' | 'data'])[] }[];
  /** Whether the class is an account (has __validate__/__execute__). */
  account: boolean;
}
