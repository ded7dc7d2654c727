/** The call engine: runs native entry points against a state overlay, collecting events. */
import { nativeClassByHash } from '../contracts/registry.js';
import { type CallContext, ExecutionFailure, type TxInfo } from '../contracts/types.js';
import { contractAddress } from '../crypto/contractAddress.js';
import { toHex } from '../felt.js';
import type { StateOverlay } from './state.js';

/** An event as emitted by a contract. */
export interface RawEvent {
  from: bigint;
  keys: bigint[];
  data: bigint[];
}

/** The environment of one execution. */
export interface ExecEnv {
  state: StateOverlay;
  tx: TxInfo;
  blockNumber: number;
  blockTimestamp: number;
  events: RawEvent[];
}

/** Which table of a class an entry point is looked up in. */
export type EntryPointType = 'EXTERNAL' | 'CONSTRUCTOR' | 'L1_HANDLER';

/** Thrown when the top-level entry point does not exist (mapped to ENTRYPOINT_NOT_FOUND by callers). */
export class EntryPointNotFound extends ExecutionFailure {}

/** Thrown when the called address has no contract (mapped to CONTRACT_NOT_FOUND by callers). */
export class ContractNotDeployed extends ExecutionFailure {}

const MAX_DEPTH = 100;

/** The message used whenever a class without a native implementation would have to run. */
export function cannotExecuteMessage(classHash: bigint): string {
  return `The nodegate dev chain cannot execute Sierra: class ${toHex(classHash)} has no native implementation (it is stored and served, but calls into it fail)`;
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
  if (depth > MAX_DEPTH) throw new ExecutionFailure('Max call depth exceeded');
  const classHash = env.state.getClassHashAt(to);
  if (classHash === undefined)
    throw new ContractNotDeployed(`Requested contract address ${toHex(to)} is not deployed.`);
  const native = nativeClassByHash(classHash);
  if (!native) throw new ExecutionFailure(cannotExecuteMessage(classHash));
  const fn = type === 'L1_HANDLER' ? native.l1Handlers.get(sel) : native.externals.get(sel);
  if (!fn) throw new EntryPointNotFound(`Entry point ${toHex(sel)} not found in contract ${toHex(to)}.`);
  return fn(makeContext(env, to, caller, depth), calldata);
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
    emit: (keys, data) => {
      env.events.push({ from: self, keys, data });
    },
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
  if (!env.state.getDeclared(classHash))
    throw new ExecutionFailure(`Class with hash ${toHex(classHash)} is not declared.`);
  const address = contractAddress(salt, classHash, calldata, deployer);
  if (env.state.getClassHashAt(address) !== undefined) {
    throw new ExecutionFailure(`Requested contract address ${toHex(address)} is unavailable for deployment.`);
  }
  env.state.deploy(address, classHash);
  const native = nativeClassByHash(classHash);
  if (!native) throw new ExecutionFailure(cannotExecuteMessage(classHash));
  if (native.def.construct) native.def.construct(makeContext(env, address, deployer, depth), calldata);
  else if (calldata.length > 0)
    throw new ExecutionFailure('Invalid constructor calldata: the class has no constructor');
  return address;
}
