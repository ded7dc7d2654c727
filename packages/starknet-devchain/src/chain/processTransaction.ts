/** The transaction pipeline: checks, validation, execution, fee charge — producing a receipt and a state diff. */
import { erc20Transfer, balanceSlot } from '../contracts/erc20.js';
import { nativeClassByHash } from '../contracts/registry.js';
import { ExecutionFailure, type TxInfo } from '../contracts/types.js';
import { selector } from '../crypto/hashes.js';
import { DevchainError, ErrorCode } from '../errors.js';
import { toHex } from '../felt.js';
import {
  type CallFrame,
  callRecorder,
  ContractNotDeployed,
  type ExecEnv,
  type GasMeter,
  type RawEvent,
  type RawMessage,
  runEntryPoint,
  deployContract,
} from './execute.js';
import { checkDeclaredClass } from './sierraExecution.js';
import {
  boundsShortfall,
  feeOf,
  type GasPrices,
  type GasUsage,
  gasUsage,
  maxFeeOfBounds,
  sierraGasBound,
} from './gas.js';
import { type StateReader, StateOverlay } from './state.js';
import type { Tx } from './transaction.js';

/** Canonical fee token addresses. */
export const STRK_ADDRESS = 0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn;
export const ETH_ADDRESS = 0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7n;

/** The block a transaction executes in. */
export interface BlockEnv {
  number: number;
  timestamp: number;
  sequencer: bigint;
  prices: GasPrices;
  chainId: bigint;
  /** The hash of a mined block (for `get_block_hash_syscall`). */
  blockHash?: (blockNumber: number) => bigint | undefined;
}

/** Options of one run of the pipeline. */
export interface ProcessOptions {
  /** Skip the account's validation entry point (SKIP_VALIDATE). */
  skipValidate: boolean;
  /** Skip the fee transfer (estimates, SKIP_FEE_CHARGE). */
  skipFeeCharge: boolean;
  /** Check max fee / resource bounds / balance (false for estimates). */
  checkFeeBounds: boolean;
  /**
   * A DEPLOY_ACCOUNT whose constructor fails is a REVERTED result (its constructor frame marked reverted, the
   * contract not deployed, the fee still computed) instead of a VALIDATION_FAILURE rejection: what a simulation
   * reports. Submitted transactions leave it false (such a transaction cannot be included).
   */
  revertConstructor?: boolean;
}

/** The outcome of an accepted transaction. */
export interface ProcessResult {
  hash: bigint;
  overlay: StateOverlay;
  events: RawEvent[];
  /** L2 → L1 messages sent by the execution (empty when it reverted). */
  messages: RawMessage[];
  /** The recorded call trees of the transaction's phases (for traces). */
  calls: { validate?: CallFrame; execute?: CallFrame; construct?: CallFrame; feeTransfer?: CallFrame };
  gas: GasUsage;
  fee: bigint;
  unit: 'FRI' | 'WEI';
  reverted: boolean;
  revertReason?: string;
  /** The deployed address of a DEPLOY_ACCOUNT. */
  contractAddress?: bigint;
}

/** Sierra gas caps of the two phases, as Starknet's `validate_max_sierra_gas` and `execute_max_sierra_gas`. */
export const VALIDATE_MAX_SIERRA_GAS = 10n ** 8n;
export const EXECUTE_MAX_SIERRA_GAS = 10n ** 9n;

const min = (a: bigint, b: bigint | undefined): bigint => (b !== undefined && b < a ? b : a);

function reject(code: (typeof ErrorCode)[keyof typeof ErrorCode], data: string): never {
  throw new DevchainError(code, { data });
}

function readBalance(state: StateReader, token: bigint, owner: bigint): bigint {
  const slot = balanceSlot(owner);
  return state.getStorage(token, slot) + (state.getStorage(token, slot + 1n) << 128n);
}

/**
 * Run `tx` (hash `hash`) over `base` in block `block`. Rejections throw {@link DevchainError} with
 * spec codes (52–61); execution failures produce a REVERTED result with the fee still charged.
 */
export function processTransaction(
  base: StateReader,
  tx: Tx,
  hash: bigint,
  block: BlockEnv,
  opts: ProcessOptions,
): ProcessResult {
  const overlay = new StateOverlay(base);
  const unit = tx.baseVersion === 3 ? 'FRI' : 'WEI';
  const token = unit === 'FRI' ? STRK_ADDRESS : ETH_ADDRESS;
  const prices = unit === 'FRI' ? block.prices.fri : block.prices.wei;
  // The base gas of the transaction's kind; the Sierra gas of what runs is added after execution.
  const baseGas = gasUsage(tx);
  const tip = tx.baseVersion === 3 ? tx.tip : 0n;
  const baseFee = feeOf(baseGas, prices, tip);
  const sender = tx.sender;

  // Sender checks.
  const senderClass = base.getClassHashAt(sender);
  if (tx.type === 'DEPLOY_ACCOUNT') {
    const declared = base.getDeclared(tx.classHash!);
    if (!declared) reject(ErrorCode.CLASS_HASH_NOT_FOUND, `Class with hash ${toHex(tx.classHash!)} is not declared.`);
    const native = nativeClassByHash(tx.classHash!);
    const isAccount = native
      ? native.def.account
      : hasAccountEntryPoints(declared.sierra.entry_points_by_type.EXTERNAL);
    if (!isAccount) reject(ErrorCode.NON_ACCOUNT, `Class ${toHex(tx.classHash!)} is not an account class.`);
    if (senderClass !== undefined)
      reject(
        ErrorCode.VALIDATION_FAILURE,
        `Requested contract address ${toHex(sender)} is unavailable for deployment.`,
      );
  } else {
    if (senderClass === undefined)
      reject(ErrorCode.VALIDATION_FAILURE, `Requested contract address ${toHex(sender)} is not deployed.`);
    const native = nativeClassByHash(senderClass);
    const declared = base.getDeclared(senderClass);
    const isAccount = native
      ? native.def.account
      : hasAccountEntryPoints(declared?.sierra.entry_points_by_type.EXTERNAL ?? []);
    if (!isAccount) reject(ErrorCode.NON_ACCOUNT, `Contract ${toHex(sender)} is not an account.`);
  }
  if (tx.type === 'DECLARE' && base.getDeclared(tx.classHash!)) {
    reject(ErrorCode.CLASS_ALREADY_DECLARED, `Class with hash ${toHex(tx.classHash!)} is already declared.`);
  }
  // A declared class is decoded now (once per class hash); one the Sierra VM cannot run is refused with 56.
  if (tx.type === 'DECLARE') checkDeclaredClass(tx.contractClass!, tx.classHash!);

  // Nonce.
  const nonce = base.getNonce(sender);
  if (tx.nonce !== nonce) {
    reject(
      ErrorCode.INVALID_TRANSACTION_NONCE,
      `Invalid transaction nonce of contract at address ${toHex(sender)}. Account nonce: ${toHex(nonce)}; got: ${toHex(tx.nonce)}.`,
    );
  }

  // Fee bounds and balance.
  if (opts.checkFeeBounds) {
    let maxFee: bigint;
    if (tx.baseVersion === 3) {
      const rb = tx.resourceBounds!;
      const why = boundsShortfall(rb, baseGas, prices);
      if (why) reject(ErrorCode.INSUFFICIENT_RESOURCES_FOR_VALIDATE, why);
      maxFee = maxFeeOfBounds(rb) + rb.l2_gas.max_amount * tip;
    } else {
      maxFee = tx.maxFee ?? 0n;
      if (maxFee < baseFee)
        reject(
          ErrorCode.INSUFFICIENT_RESOURCES_FOR_VALIDATE,
          `max_fee ${maxFee} is below the transaction fee ${baseFee}`,
        );
    }
    const balance = readBalance(base, token, sender);
    if (balance < maxFee) reject(ErrorCode.INSUFFICIENT_ACCOUNT_BALANCE, `balance ${balance} < max fee ${maxFee}`);
  }

  const txInfo: TxInfo = {
    hash,
    version: tx.version,
    account: sender,
    nonce: tx.nonce,
    signature: tx.signature,
    chainId: block.chainId,
    tip,
    paymasterData: tx.paymasterData,
    nonceDA: tx.nonceDA,
    feeDA: tx.feeDA,
    accountDeploymentData: tx.accountDeploymentData,
  };
  if (tx.maxFee !== undefined) txInfo.maxFee = tx.maxFee;
  if (tx.resourceBounds) txInfo.resourceBounds = tx.resourceBounds;
  const env: ExecEnv = {
    state: overlay,
    tx: txInfo,
    blockNumber: block.number,
    blockTimestamp: block.timestamp,
    events: [],
    messages: [],
    sequencer: block.sequencer,
  };
  if (block.blockHash) env.blockHash = block.blockHash;
  // Sierra gas: what the transaction's limits can pay beyond its base gas (estimates: no limit), capped per phase.
  const bound = opts.checkFeeBounds ? sierraGasBound(tx, prices, tip) : undefined;
  const validateGas: GasMeter = { budget: min(VALIDATE_MAX_SIERRA_GAS, bound), used: 0n };
  env.gas = validateGas;
  // Every call is recorded for traces: validation (and a DEPLOY_ACCOUNT's constructor), then execution.
  const counter = { events: 0, messages: 0 };
  const validation = callRecorder(counter);
  env.recorder = validation;

  // Validation (deploy-account runs its constructor first).
  let contractAddress: bigint | undefined;
  let reverted = false;
  let revertReason: string | undefined;
  try {
    if (tx.type === 'DEPLOY_ACCOUNT') {
      // the constructor runs in its own overlay: when it fails, nothing of it stays
      const deploy = new StateOverlay(overlay);
      const deployEnv: ExecEnv = { ...env, state: deploy, events: [], messages: [] };
      try {
        contractAddress = deployContract(deployEnv, tx.classHash!, tx.salt!, tx.calldata, 0n);
        deploy.commitTo(overlay);
        env.events.push(...deployEnv.events);
        env.messages!.push(...deployEnv.messages!);
      } catch (e) {
        if (!(e instanceof ExecutionFailure) || !opts.revertConstructor) throw e;
        reverted = true;
        revertReason = `Transaction execution has failed:\n${e.message}`;
      }
      if (!reverted && !opts.skipValidate) {
        runEntryPoint(env, sender, selector('__validate_deploy__'), [tx.classHash!, tx.salt!, ...tx.calldata], 0n);
      }
    } else if (!opts.skipValidate) {
      if (tx.type === 'INVOKE') runEntryPoint(env, sender, selector('__validate__'), tx.calldata, 0n);
      else runEntryPoint(env, sender, selector('__validate_declare__'), [tx.classHash!], 0n);
    }
  } catch (e) {
    if (e instanceof ExecutionFailure) reject(ErrorCode.VALIDATION_FAILURE, e.message);
    throw e;
  }
  overlay.setNonce(sender, nonce + 1n);
  if (tx.type === 'DECLARE') overlay.declare(tx.classHash!, tx.contractClass!, tx.compiledClassHash!);

  // Execution, in its own overlay so that a revert discards it.
  const execution = callRecorder(counter);
  const left = bound === undefined ? undefined : bound - validateGas.used;
  const executeGas: GasMeter = { budget: min(EXECUTE_MAX_SIERRA_GAS, left), used: 0n };
  /** The transaction's gas and fee with the Sierra gas consumed so far. */
  const charge = () => {
    const g = gasUsage(tx, validateGas.used + executeGas.used);
    return { gas: g, fee: feeOf(g, prices, tip) };
  };
  if (tx.type === 'INVOKE') {
    const exec = new StateOverlay(overlay);
    const execEnv: ExecEnv = { ...env, state: exec, events: [], messages: [], recorder: execution, gas: executeGas };
    try {
      runEntryPoint(execEnv, sender, selector('__execute__'), tx.calldata, 0n);
      if (!opts.skipFeeCharge && readBalance(exec, token, sender) < charge().fee) {
        throw new ExecutionFailure('Insufficient fee token balance to pay the actual fee after execution');
      }
      exec.commitTo(overlay);
      env.events.push(...execEnv.events);
      env.messages!.push(...execEnv.messages!);
    } catch (e) {
      if (!(e instanceof ExecutionFailure)) throw e;
      reverted = true;
      revertReason = e instanceof ContractNotDeployed ? e.message : `Transaction execution has failed:\n${e.message}`;
    }
  }

  // Fee: the token's Transfer event is the last event of the receipt.
  const { gas, fee } = charge();
  let feeInvocation: CallFrame | undefined;
  if (!opts.skipFeeCharge && fee > 0n) {
    const { recorder: _, ...withoutRecorder } = env;
    const feeEnv: ExecEnv = { ...withoutRecorder, events: [] };
    try {
      runFeeTransfer(feeEnv, token, sender, block.sequencer, fee);
    } catch (e) {
      if (e instanceof ExecutionFailure) reject(ErrorCode.INSUFFICIENT_ACCOUNT_BALANCE, e.message);
      throw e;
    }
    env.events.push(...feeEnv.events);
    const [low, high] = [fee & (2n ** 128n - 1n), fee >> 128n];
    feeInvocation = {
      contractAddress: token,
      selector: selector('transfer'),
      calldata: [block.sequencer, low, high],
      caller: sender,
      classHash: base.getClassHashAt(token) ?? 0n,
      type: 'EXTERNAL',
      callType: 'CALL',
      result: [1n],
      calls: [],
      events: feeEnv.events.map((e) => ({ order: counter.events++, keys: e.keys, data: e.data })),
      messages: [],
      reverted: false,
    };
  }

  const result: ProcessResult = {
    hash,
    overlay,
    events: env.events,
    messages: env.messages!,
    calls: {},
    gas,
    fee,
    unit,
    reverted,
  };
  if (revertReason !== undefined) result.revertReason = revertReason;
  if (contractAddress !== undefined) result.contractAddress = contractAddress;
  const [first, second] = validation.calls;
  if (tx.type === 'DEPLOY_ACCOUNT') {
    if (first) result.calls.construct = first;
    if (second) result.calls.validate = second;
  } else if (first) result.calls.validate = first;
  if (execution.calls[0]) result.calls.execute = execution.calls[0];
  if (feeInvocation) result.calls.feeTransfer = feeInvocation;
  return result;
}

function runFeeTransfer(env: ExecEnv, token: bigint, from: bigint, to: bigint, amount: bigint): void {
  const ctx = {
    self: token,
    caller: from,
    tx: env.tx,
    blockNumber: env.blockNumber,
    blockTimestamp: env.blockTimestamp,
    readStorage: (k: bigint) => env.state.getStorage(token, k),
    writeStorage: (k: bigint, v: bigint) => env.state.setStorage(token, k, v),
    emit: (keys: bigint[], data: bigint[]) => {
      env.events.push({ from: token, keys, data });
    },
    call: () => {
      throw new ExecutionFailure('unsupported');
    },
    deploy: () => {
      throw new ExecutionFailure('unsupported');
    },
    replaceClass: () => {
      throw new ExecutionFailure('unsupported');
    },
    nativeNameOf: () => undefined,
  };
  erc20Transfer(ctx, from, to, amount);
}

const VALIDATE = toHex(selector('__validate__'));
const EXECUTE = toHex(selector('__execute__'));

function hasAccountEntryPoints(eps: readonly { selector: string }[]): boolean {
  const s = new Set(eps.map((e) => toHex(BigInt(e.selector))));
  return s.has(VALIDATE) && s.has(EXECUTE);
}

/** Read an ERC20 balance from state (used by mint and tests of the pipeline). */
export function tokenBalance(state: StateReader, token: bigint, owner: bigint): bigint {
  return readBalance(state, token, owner);
}
