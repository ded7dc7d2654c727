/**
 * Runs declared (non-native) Sierra classes on the `@nodegate/sierra-vm` interpreter: classes are decoded once per
 * class hash (at declare, or at first use for classes loaded from disk), and each entry point runs with a host that
 * binds its syscalls to the execution environment (state overlay, events, messages, nested calls).
 */
import {
  BYTE_ARRAY_MAGIC,
  decodePanicData,
  EntryPointNotFoundError,
  type CallGas,
  type ExecutionInfoOptions,
  type LoadedContractClass,
  loadContractClass,
  cachedContractClass,
  runEntryPoint as runVmEntryPoint,
  SierraDecodeError,
  SierraRunError,
  type StarknetHost,
  SyscallFailure,
} from '@nodegate/sierra-vm';
import type { SierraContractClass } from '../contracts/sierraClass.js';
import { ExecutionFailure, type TxInfo } from '../contracts/types.js';
import { pedersenOnElements, selector } from '../crypto/hashes.js';
import { DevchainError, ErrorCode } from '../errors.js';
import { shortString, toHex } from '../felt.js';
import {
  cannotExecuteMessage,
  ContractNotDeployed,
  deployContractWithResult,
  EntryPointNotFound,
  emitEvent,
  type EntryPointType,
  type ExecEnv,
  type GasMeter,
  runClass,
  runEntryPoint,
  sendMessage,
} from './execute.js';
import { StateOverlay } from './state.js';
import { executionInfoVersion } from './v1BoundAccounts.js';

/** A Sierra panic of a user contract: an {@link ExecutionFailure} that keeps the panic data felts. */
export class SierraPanic extends ExecutionFailure {
  /** The panic data (e.g. `[0x753235365f737562204f766572666c6f77]` for 'u256_sub Overflow'). */
  readonly data: bigint[];

  constructor(message: string, data: readonly bigint[]) {
    super(message);
    this.name = 'SierraPanic';
    this.data = [...data];
  }
}

/**
 * The Sierra gas of an entry point run without a transaction's budget (`starknet_call`, L1 handlers, estimates of
 * messages): Starknet's `execute_max_sierra_gas` (10^9, about 10^7 statements in the sierra-vm gas model).
 */
export const DEFAULT_CALL_GAS = 10n ** 9n;
/** Statements one entry point may run (nested calls counted separately); the gas budget stops loops sooner. */
const MAX_STEPS = 20_000_000;

const ENTRYPOINT_FAILED = shortString('ENTRYPOINT_FAILED');
const ENTRYPOINT_NOT_FOUND = shortString('ENTRYPOINT_NOT_FOUND');
const CONTRACT_NOT_DEPLOYED = shortString('CONTRACT_NOT_DEPLOYED');

/** Why a class's program cannot run, by class hash (decoding failed). */
const undecodable = new Map<bigint, string>();

/**
 * Decodes a class being declared, once: the decoded program is cached under its class hash. As a sequencer that
 * cannot compile it to CASM, the dev chain refuses with COMPILATION_FAILED (56) a program that is not a valid Sierra
 * encoding or not well formed (branches or entry points outside it), and a class using a generic libfunc the VM
 * lacks, naming the libfuncs. (A class already in a loaded state that cannot run is served, and calls into it fail.)
 */
export function checkDeclaredClass(sierra: SierraContractClass, classHash: bigint): void {
  let cls: LoadedContractClass;
  try {
    cls = loadContractClass(sierra, classHash);
  } catch (e) {
    if (e instanceof SierraDecodeError || e instanceof SierraRunError) {
      throw new DevchainError(ErrorCode.COMPILATION_FAILED, {
        data: `Class ${toHex(classHash)} cannot be compiled: its Sierra program is invalid (${e.message})`,
      });
    }
    throw e;
  }
  if (cls.unsupportedLibfuncs.length > 0) {
    throw new DevchainError(ErrorCode.COMPILATION_FAILED, {
      data: `Class ${toHex(classHash)} uses libfuncs the dev chain's Sierra VM cannot run: ${cls.unsupportedLibfuncs.join(', ')}`,
    });
  }
}

/** The loaded class `classHash` (decoding it on first use), or an {@link ExecutionFailure} saying why it cannot run. */
function loadedClass(env: ExecEnv, classHash: bigint): LoadedContractClass {
  const hit = cachedContractClass(classHash);
  if (hit) return hit;
  const why = undecodable.get(classHash);
  if (why !== undefined) throw new ExecutionFailure(cannotExecuteMessage(classHash, why));
  const declared = env.state.getDeclared(classHash);
  if (!declared) throw new ExecutionFailure(`Class with hash ${toHex(classHash)} is not declared.`);
  try {
    return loadContractClass(declared.sierra, classHash);
  } catch (e) {
    if (!(e instanceof SierraDecodeError || e instanceof SierraRunError)) throw e;
    undecodable.set(classHash, e.message);
    throw new ExecutionFailure(cannotExecuteMessage(classHash, e.message));
  }
}

/** Panic data as text: each felt's short string (quoted) or hex, a ByteArray as its text; several in parentheses. */
export function panicReason(data: readonly bigint[]): string {
  const parts = decodePanicData(data).map((m) => (/^0x[0-9a-f]+$/.test(m) ? m : `'${m}'`));
  return parts.length === 1 ? parts[0]! : `(${parts.join(', ')})`;
}

/** The felts a failed nested call returns to its caller: the callee's panic data or reason, then 'ENTRYPOINT_FAILED'. */
function revertData(e: ExecutionFailure): bigint[] {
  if (e instanceof SierraPanic) return [...e.data, ENTRYPOINT_FAILED];
  if (e instanceof EntryPointNotFound) return [ENTRYPOINT_NOT_FOUND, ENTRYPOINT_FAILED];
  if (e instanceof ContractNotDeployed) return [CONTRACT_NOT_DEPLOYED, ENTRYPOINT_FAILED];
  return [...encodeText(e.message), ENTRYPOINT_FAILED];
}

/** A message as one short string (31 ASCII characters or fewer) or a serialized ByteArray (as `panic!` writes). */
function encodeText(text: string): bigint[] {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= 31 && /^[\x20-\x7e]*$/.test(text)) return [shortString(text)];
  const words: bigint[] = [];
  let i = 0;
  for (; i + 31 <= bytes.length; i += 31) words.push(BigInt(`0x${bytes.subarray(i, i + 31).toString('hex')}`));
  const rest = bytes.subarray(i);
  return [
    BYTE_ARRAY_MAGIC,
    BigInt(words.length),
    ...words,
    rest.length ? BigInt(`0x${rest.toString('hex')}`) : 0n,
    BigInt(rest.length),
  ];
}

/**
 * Runs `run` over a child overlay and event list, as a nested call: on success its writes, events and messages join
 * the parent's; on an {@link ExecutionFailure} they are dropped and the syscall fails with the revert data. The
 * nested call's Sierra code runs on the gas the VM gives it (`gas.available`); what it consumed goes back in
 * `gas.used`, failed or not.
 */
function nested<T>(env: ExecEnv, gas: CallGas | undefined, run: (child: ExecEnv) => T): T {
  const state = new StateOverlay(env.state);
  const meter: GasMeter | undefined = gas ? { budget: gas.available, used: 0n } : env.gas;
  const child: ExecEnv = { ...env, state, events: [], messages: [] };
  if (meter) child.gas = meter;
  try {
    const out = run(child);
    state.commitTo(env.state);
    env.events.push(...child.events);
    env.messages?.push(...(child.messages ?? []));
    return out;
  } catch (e) {
    if (e instanceof ExecutionFailure) throw new SyscallFailure(revertData(e), e.message);
    throw e;
  } finally {
    if (gas && meter) gas.used = meter.used;
  }
}

const fail = (text: string): never => {
  throw new SyscallFailure([shortString(text)], text);
};

/** The resource name felts of the execution info's resource bounds. */
const L1_GAS = shortString('L1_GAS');
const L2_GAS = shortString('L2_GAS');
const L1_DATA = shortString('L1_DATA');

const EXECUTE_SELECTOR = selector('__execute__');
const INVOKE_PREFIX = shortString('invoke');

/**
 * What a `meta_tx_v0_syscall` to `address` shows the called contract and the calls it makes, as the Starknet OS
 * builds it: a version 0 transaction of that account, the given signature, no fee fields, nonce 0, and as hash the
 * version 0 INVOKE hash (`h('invoke', 0, address, selector, h(calldata), max_fee 0, chain id)`, Pedersen on elements).
 */
function metaTxV0Info(tx: TxInfo, address: bigint, sel: bigint, calldata: bigint[], signature: bigint[]): TxInfo {
  const hash = pedersenOnElements([INVOKE_PREFIX, 0n, address, sel, pedersenOnElements(calldata), 0n, tx.chainId]);
  return {
    hash,
    version: 0n,
    account: address,
    nonce: 0n,
    signature,
    chainId: tx.chainId,
    maxFee: 0n,
    tip: 0n,
    paymasterData: [],
    nonceDA: 'L1',
    feeDA: 'L1',
    accountDeploymentData: [],
  };
}

function executionInfo(
  env: ExecEnv,
  self: bigint,
  caller: bigint,
  sel: bigint,
  classHash: bigint,
): ExecutionInfoOptions {
  const t = env.tx;
  const info: ExecutionInfoOptions = {
    blockNumber: BigInt(env.blockNumber),
    blockTimestamp: BigInt(env.blockTimestamp),
    sequencerAddress: env.sequencer ?? 0n,
    // v1-bound account classes are shown version 1 for v3 transactions (Starknet's versioned constants)
    version: executionInfoVersion(t, classHash),
    accountAddress: t.account,
    transactionHash: t.hash,
    chainId: t.chainId,
    nonce: t.nonce,
    signature: t.signature,
    maxFee: t.maxFee ?? 0n,
    tip: t.tip ?? 0n,
    paymasterData: t.paymasterData ?? [],
    nonceDataAvailabilityMode: t.nonceDA === 'L2' ? 1n : 0n,
    feeDataAvailabilityMode: t.feeDA === 'L2' ? 1n : 0n,
    accountDeploymentData: t.accountDeploymentData ?? [],
    callerAddress: caller,
    contractAddress: self,
    entryPointSelector: sel,
  };
  const rb = t.resourceBounds;
  if (rb) {
    const bounds = [
      { resource: L1_GAS, maxAmount: rb.l1_gas.max_amount, maxPricePerUnit: rb.l1_gas.max_price_per_unit },
      { resource: L2_GAS, maxAmount: rb.l2_gas.max_amount, maxPricePerUnit: rb.l2_gas.max_price_per_unit },
    ];
    if (rb.l1_data_gas)
      bounds.push({
        resource: L1_DATA,
        maxAmount: rb.l1_data_gas.max_amount,
        maxPricePerUnit: rb.l1_data_gas.max_price_per_unit,
      });
    info.resourceBounds = bounds;
  }
  return info;
}

/** The syscalls of the contract `self` (running entry point `sel` of class `classHash` for `caller`) bound to `env`. */
function makeHost(
  env: ExecEnv,
  self: bigint,
  caller: bigint,
  sel: bigint,
  depth: number,
  classHash: bigint,
): StarknetHost {
  return {
    storageRead: (domain, key) =>
      domain === 0n ? env.state.getStorage(self, key) : fail('Unsupported address domain'),
    storageWrite: (domain, key, value) => {
      if (domain !== 0n) fail('Unsupported address domain');
      env.state.setStorage(self, key, value);
    },
    emitEvent: (keys, data) => emitEvent(env, self, keys, data),
    callContract: (address, selector, calldata, gas) =>
      nested(env, gas, (child) => runEntryPoint(child, address, selector, calldata, self, 'EXTERNAL', depth + 1)),
    libraryCall: (classHash, selector, calldata, gas) => {
      if (!env.state.getDeclared(classHash)) fail('CLASS_HASH_NOT_FOUND');
      return nested(env, gas, (child) =>
        runClass(child, classHash, self, selector, calldata, caller, 'EXTERNAL', depth + 1, 'LIBRARY_CALL'),
      );
    },
    deploy: (classHash, salt, calldata, deployFromZero, gas) =>
      nested(env, gas, (child) =>
        deployContractWithResult(child, classHash, salt, calldata, deployFromZero ? 0n : self, depth + 1),
      ),
    replaceClass: (classHash) => {
      if (!env.state.getDeclared(classHash)) fail('CLASS_HASH_NOT_FOUND');
      env.state.replaceClass(self, classHash);
    },
    executionInfo: () => executionInfo(env, self, caller, sel, classHash),
    getBlockHash: (n) => {
      // As the protocol: only blocks at least 10 below the current one.
      if (n > BigInt(env.blockNumber) - 10n) fail('Block number out of range');
      const h = env.blockHash?.(Number(n));
      return h ?? fail('Block number out of range');
    },
    getClassHashAt: (address) => env.state.getClassHashAt(address) ?? 0n,
    sendMessageToL1: (to, payload) => sendMessage(env, self, to, payload),
    // Only `__execute__` may be called so ('Invalid argument' otherwise); the caller is 0.
    metaTxV0: (address, sel, calldata, signature, gas) => {
      if (sel !== EXECUTE_SELECTOR) fail('Invalid argument');
      const tx = metaTxV0Info(env.tx, address, sel, calldata, signature);
      return nested(env, gas, (child) =>
        runEntryPoint({ ...child, tx }, address, sel, calldata, 0n, 'EXTERNAL', depth + 1),
      );
    },
  };
}

/**
 * Runs entry point `sel` (of `type`) of the Sierra class `classHash` for the contract `self`, on the gas left in
 * `env.gas` (or {@link DEFAULT_CALL_GAS}), to whose `used` it adds what it consumed, also when it fails. A panic throws {@link SierraPanic} with the decoded reason ('Out of gas' when the budget ran out); a missing
 * entry point {@link EntryPointNotFound}; an interpreter failure (a libfunc it lacks reached, the step limit) an
 * {@link ExecutionFailure}.
 */
export function runSierraEntryPoint(
  env: ExecEnv,
  classHash: bigint,
  self: bigint,
  sel: bigint,
  calldata: readonly bigint[],
  caller: bigint,
  type: EntryPointType,
  depth: number,
): bigint[] {
  const cls = loadedClass(env, classHash);
  const meter = env.gas;
  let r: ReturnType<typeof runVmEntryPoint>;
  try {
    r = runVmEntryPoint(cls, type, sel, calldata, {
      host: makeHost(env, self, caller, sel, depth, classHash),
      availableGas: meter ? meter.budget - meter.used : DEFAULT_CALL_GAS,
      maxSteps: MAX_STEPS,
    });
  } catch (e) {
    if (e instanceof EntryPointNotFoundError)
      throw new EntryPointNotFound(`Entry point ${toHex(sel)} not found in contract ${toHex(self)}.`);
    if (e instanceof SierraRunError)
      throw new ExecutionFailure(
        `Sierra VM error in contract ${toHex(self)} (class ${toHex(classHash)}, selector ${toHex(sel)}): ${e.message}`,
      );
    throw e;
  }
  if (meter) meter.used += r.gasUsed;
  if (r.panic) {
    throw new SierraPanic(
      `Error in contract (contract address: ${toHex(self)}, class hash: ${toHex(classHash)}, selector: ${toHex(sel)}): ${panicReason(r.panic.data)}`,
      r.panic.data,
    );
  }
  return r.retdata;
}

/** Runs the constructor of the Sierra class `classHash` for the new contract `self`; its return data. */
export function runSierraConstructor(
  env: ExecEnv,
  classHash: bigint,
  self: bigint,
  calldata: readonly bigint[],
  deployer: bigint,
  depth: number,
): bigint[] {
  const cls = loadedClass(env, classHash);
  const [ctor] = cls.entryPoints.CONSTRUCTOR.keys();
  if (ctor === undefined) {
    if (calldata.length > 0) throw new ExecutionFailure('Invalid constructor calldata: the class has no constructor');
    return [];
  }
  return runSierraEntryPoint(env, classHash, self, ctor, calldata, deployer, 'CONSTRUCTOR', depth);
}
