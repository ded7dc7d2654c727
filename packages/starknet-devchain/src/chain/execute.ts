/**
 * The call engine: runs entry points against a state overlay, collecting events and L2→L1 messages. Native
 * classes run their TypeScript implementation; every other declared class runs on the Sierra VM
 * (`sierraExecution.ts`), and the two call each other both ways.
 */
import { nativeClassByHash } from '../contracts/registry.js';
import { type CallContext, ExecutionFailure, type TxInfo } from '../contracts/types.js';
import { contractAddress } from '../crypto/contractAddress.js';
import { selector } from '../crypto/hashes.js';
import { toHex } from '../felt.js';
import { runSierraConstructor, runSierraEntryPoint } from './sierraExecution.js';
import type { StateOverlay } from './state.js';

/** An event as emitted by a contract. */
export interface RawEvent {
  from: bigint;
  keys: bigint[];
  data: bigint[];
}

/** An L2 → L1 message sent by a contract (`send_message_to_l1_syscall`). */
export interface RawMessage {
  from: bigint;
  to: bigint;
  payload: bigint[];
}

/** The environment of one execution. */
export interface ExecEnv {
  state: StateOverlay;
  tx: TxInfo;
  blockNumber: number;
  blockTimestamp: number;
  events: RawEvent[];
  /** Where sent L2 → L1 messages go (dropped when absent). */
  messages?: RawMessage[];
  /** The block's sequencer address, for the execution info (0 when absent). */
  sequencer?: bigint;
  /** The hash of a mined block, for `get_block_hash_syscall` (absent: the syscall fails). */
  blockHash?: (blockNumber: number) => bigint | undefined;
  /** When present, every call made is recorded as a {@link CallFrame} (for traces). */
  recorder?: CallRecorder;
  /**
   * The Sierra gas budget of this execution: each entry point of a declared class runs on what is left of it
   * (`budget − used`) and adds its consumption to `used` (native code costs nothing). Absent: each entry point gets
   * the default budget of a call (see `sierraExecution.ts`).
   */
  gas?: GasMeter;
}

/** A Sierra gas budget and what has been consumed from it (mutated as entry points run). */
export interface GasMeter {
  readonly budget: bigint;
  used: bigint;
}

/** One call of an execution, as a trace's FUNCTION_INVOCATION shows it. */
export interface CallFrame {
  contractAddress: bigint;
  selector: bigint;
  calldata: bigint[];
  caller: bigint;
  classHash: bigint;
  type: EntryPointType;
  callType: 'CALL' | 'LIBRARY_CALL';
  result: bigint[];
  /** The calls it made, in order. */
  calls: CallFrame[];
  /** Its own events and messages; `order` counts over the whole transaction. */
  events: { order: number; keys: bigint[]; data: bigint[] }[];
  messages: { order: number; to: bigint; payload: bigint[] }[];
  /** It failed (its writes, events and messages were dropped). */
  reverted: boolean;
}

/** Where calls are recorded: new frames go to `calls`; `frame` is the running call. */
export interface CallRecorder {
  calls: CallFrame[];
  frame?: CallFrame;
  counter: { events: number; messages: number };
}

/** A recorder of the top-level calls of one transaction phase (sharing `counter` across phases). */
export function callRecorder(counter = { events: 0, messages: 0 }): CallRecorder {
  return { calls: [], counter };
}

/** Emits an event from `from`: appended to the execution's events and to the running frame, if recorded. */
export function emitEvent(env: ExecEnv, from: bigint, keys: bigint[], data: bigint[]): void {
  env.events.push({ from, keys, data });
  const r = env.recorder;
  if (r?.frame) r.frame.events.push({ order: r.counter.events++, keys: [...keys], data: [...data] });
}

/** Sends an L2 → L1 message from `from` (kept when the execution collects messages). */
export function sendMessage(env: ExecEnv, from: bigint, to: bigint, payload: bigint[]): void {
  env.messages?.push({ from, to, payload });
  const r = env.recorder;
  if (r?.frame) r.frame.messages.push({ order: r.counter.messages++, to, payload: [...payload] });
}

/** Runs `run` as a recorded call (when `env` records): its frame gets the result, or `reverted` if it throws. */
function inFrame(
  env: ExecEnv,
  call: Omit<CallFrame, 'result' | 'calls' | 'events' | 'messages' | 'reverted'>,
  run: (env: ExecEnv) => bigint[],
): bigint[] {
  const r = env.recorder;
  if (!r) return run(env);
  const frame: CallFrame = {
    ...call,
    calldata: [...call.calldata],
    result: [],
    calls: [],
    events: [],
    messages: [],
    reverted: false,
  };
  r.calls.push(frame);
  try {
    const out = run({ ...env, recorder: { calls: frame.calls, frame, counter: r.counter } });
    frame.result = [...out];
    return out;
  } catch (e) {
    frame.reverted = true;
    throw e;
  }
}

/** Which table of a class an entry point is looked up in. */
export type EntryPointType = 'EXTERNAL' | 'CONSTRUCTOR' | 'L1_HANDLER';

/** Thrown when the top-level entry point does not exist (mapped to ENTRYPOINT_NOT_FOUND by callers). */
export class EntryPointNotFound extends ExecutionFailure {}

/** Thrown when the called address has no contract (mapped to CONTRACT_NOT_FOUND by callers). */
export class ContractNotDeployed extends ExecutionFailure {}

const MAX_DEPTH = 100;
const CONSTRUCTOR_SELECTOR = selector('constructor');

/**
 * The message used whenever a class that is neither native nor runnable on the Sierra VM would have to run
 * (its program could not be decoded), with the reason when known.
 */
export function cannotExecuteMessage(classHash: bigint, why?: string): string {
  return `The nodegate dev chain cannot execute Sierra: class ${toHex(classHash)} has no native implementation and its program cannot run on the Sierra VM${why ? ` (${why})` : ''}`;
}

/**
 * Run the entry point `sel` of the contract at `to` with `calldata`, called by `caller`.
 * Failures throw {@link ExecutionFailure}; the caller decides whether they revert or reject.
 */
export function runEntryPoint(
  env: ExecEnv,
  to: bigint,
  sel: bigint,
  calldata: readonly bigint[],
  caller: bigint,
  type: EntryPointType = 'EXTERNAL',
  depth = 0,
): bigint[] {
  const classHash = env.state.getClassHashAt(to);
  if (classHash === undefined)
    throw new ContractNotDeployed(`Requested contract address ${toHex(to)} is not deployed.`);
  return runClass(env, classHash, to, sel, calldata, caller, type, depth);
}

/**
 * Run the entry point `sel` of class `classHash` in the context of the contract `self` (its storage, its address
 * as `get_contract_address`): a call when `classHash` is the class of `self`, a library call otherwise.
 */
export function runClass(
  env: ExecEnv,
  classHash: bigint,
  self: bigint,
  sel: bigint,
  calldata: readonly bigint[],
  caller: bigint,
  type: EntryPointType,
  depth: number,
  callType: CallFrame['callType'] = 'CALL',
): bigint[] {
  if (depth > MAX_DEPTH) throw new ExecutionFailure('Max call depth exceeded');
  const call = { contractAddress: self, selector: sel, calldata: [...calldata], caller, classHash, type, callType };
  return inFrame(env, call, (env) => {
    const native = nativeClassByHash(classHash);
    if (!native) return runSierraEntryPoint(env, classHash, self, sel, calldata, caller, type, depth);
    const fn = type === 'L1_HANDLER' ? native.l1Handlers.get(sel) : native.externals.get(sel);
    if (!fn) throw new EntryPointNotFound(`Entry point ${toHex(sel)} not found in contract ${toHex(self)}.`);
    return fn(makeContext(env, self, caller, depth), calldata);
  });
}

function makeContext(env: ExecEnv, self: bigint, caller: bigint, depth: number): CallContext {
  return {
    self,
    caller,
    tx: env.tx,
    blockNumber: env.blockNumber,
    blockTimestamp: env.blockTimestamp,
    readStorage: (key) => env.state.getStorage(self, key),
    writeStorage: (key, value) => env.state.setStorage(self, key, value),
    emit: (keys, data) => emitEvent(env, self, keys, data),
    call: (to, sel, calldata) => {
      try {
        return runEntryPoint(env, to, sel, calldata, self, 'EXTERNAL', depth + 1);
      } catch (e) {
        if (e instanceof ExecutionFailure && !e.message.startsWith('Error in the called contract')) {
          throw new ExecutionFailure(`Error in the called contract (${toHex(to)}): ${e.message}`);
        }
        throw e;
      }
    },
    deploy: (classHash, salt, calldata, fromZero) =>
      deployContract(env, classHash, salt, calldata, fromZero ? 0n : self, depth + 1),
    replaceClass: (classHash) => {
      if (!env.state.getDeclared(classHash))
        throw new ExecutionFailure(`Class with hash ${toHex(classHash)} is not declared.`);
      env.state.replaceClass(self, classHash);
    },
    nativeNameOf: (classHash) => nativeClassByHash(classHash)?.def.name,
  };
}

/** Deploy an instance of a declared class and run its constructor; returns the address. */
export function deployContract(
  env: ExecEnv,
  classHash: bigint,
  salt: bigint,
  calldata: readonly bigint[],
  deployer: bigint,
  depth = 0,
): bigint {
  return deployContractWithResult(env, classHash, salt, calldata, deployer, depth).address;
}

/** {@link deployContract}, also returning what the constructor returned (what `deploy_syscall` gives back). */
export function deployContractWithResult(
  env: ExecEnv,
  classHash: bigint,
  salt: bigint,
  calldata: readonly bigint[],
  deployer: bigint,
  depth = 0,
): { address: bigint; retdata: bigint[] } {
  if (depth > MAX_DEPTH) throw new ExecutionFailure('Max call depth exceeded');
  if (!env.state.getDeclared(classHash))
    throw new ExecutionFailure(`Class with hash ${toHex(classHash)} is not declared.`);
  const address = contractAddress(salt, classHash, calldata, deployer);
  if (env.state.getClassHashAt(address) !== undefined) {
    throw new ExecutionFailure(`Requested contract address ${toHex(address)} is unavailable for deployment.`);
  }
  env.state.deploy(address, classHash);
  const call = {
    contractAddress: address,
    selector: CONSTRUCTOR_SELECTOR,
    calldata: [...calldata],
    caller: deployer,
    classHash,
    type: 'CONSTRUCTOR' as const,
    callType: 'CALL' as const,
  };
  const retdata = inFrame(env, call, (env) => {
    const native = nativeClassByHash(classHash);
    if (!native) return runSierraConstructor(env, classHash, address, calldata, deployer, depth);
    if (native.def.construct) native.def.construct(makeContext(env, address, deployer, depth), calldata);
    else if (calldata.length > 0)
      throw new ExecutionFailure('Invalid constructor calldata: the class has no constructor');
    return [];
  });
  return { address, retdata };
}
