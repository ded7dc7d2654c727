/** How an L1_HANDLER transaction (a message from L1) runs: its handler over a state overlay, metered and priced. */
import { type BlockEnv, EXECUTE_MAX_SIERRA_GAS, type ProcessResult } from '../chain/processTransaction.js';
import { callRecorder, type ExecEnv, type GasMeter, runEntryPoint } from '../chain/execute.js';
import { feeOf, gasUsage } from '../chain/gas.js';
import { type StateReader, StateOverlay } from '../chain/state.js';
import type { Tx } from '../chain/transaction.js';
import { nativeClassByHash } from '../contracts/registry.js';
import { ExecutionFailure } from '../contracts/types.js';
import { DevchainError, ErrorCode } from '../errors.js';
import { toHex } from '../felt.js';

/**
 * Whether the contract at `address` has the L1 handler `selector`: CONTRACT_NOT_FOUND when nothing is deployed there,
 * ENTRYPOINT_NOT_FOUND when its class has no such L1 handler (a message to it is never accepted on L2).
 */
export function requireL1Handler(state: StateReader, address: bigint, selector: bigint): void {
  const classHash = state.getClassHashAt(address);
  if (classHash === undefined)
    throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND, { data: `no contract at ${toHex(address)}` });
  const native = nativeClassByHash(classHash);
  const found = native
    ? native.l1Handlers.has(selector)
    : (state.getDeclared(classHash)?.sierra.entry_points_by_type.L1_HANDLER ?? []).some(
        (e) => BigInt(e.selector) === selector,
      );
  if (!found)
    throw new DevchainError(ErrorCode.ENTRYPOINT_NOT_FOUND, {
      data: `the contract at ${toHex(address)} has no L1 handler ${toHex(selector)}`,
    });
}

/**
 * Runs the L1_HANDLER transaction `tx` (target `tx.sender`, selector `tx.entryPointSelector`, calldata: the L1
 * sender, then the payload) over `base`. Its handler must exist ({@link requireL1Handler}); a handler that fails
 * gives a REVERTED result (no writes, events or messages) with its reason. Gas: the L1_HANDLER row of the gas table
 * plus the Sierra gas consumed, priced in WEI at the block's prices (the fee is paid on L1; nothing is charged on L2).
 *
 * @example
 * const r = runL1Message(chain.stateAt({ tag: 'latest' }), tx, chain.hashOf(tx), chain.pendingEnv());
 * r.reverted; // false when the handler returned
 */
export function runL1Message(base: StateReader, tx: Tx, hash: bigint, env: BlockEnv): ProcessResult {
  const selector = tx.entryPointSelector ?? 0n;
  requireL1Handler(base, tx.sender, selector);
  const overlay = new StateOverlay(base);
  const exec = new StateOverlay(overlay);
  const recorder = callRecorder();
  const gas: GasMeter = { budget: EXECUTE_MAX_SIERRA_GAS, used: 0n };
  const execEnv: ExecEnv = {
    state: exec,
    tx: { hash, version: 0n, account: 0n, nonce: tx.nonce, signature: [], chainId: env.chainId },
    blockNumber: env.number,
    blockTimestamp: env.timestamp,
    events: [],
    messages: [],
    sequencer: env.sequencer,
    recorder,
    gas,
    ...(env.blockHash ? { blockHash: env.blockHash } : {}),
  };
  let revertReason: string | undefined;
  try {
    runEntryPoint(execEnv, tx.sender, selector, tx.calldata, 0n, 'L1_HANDLER');
    exec.commitTo(overlay);
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    revertReason = `Transaction execution has failed:\n${e.message}`;
  }
  const used = gasUsage(tx, gas.used);
  const result: ProcessResult = {
    hash,
    overlay,
    events: revertReason === undefined ? execEnv.events : [],
    messages: revertReason === undefined ? execEnv.messages! : [],
    calls: recorder.calls[0] ? { execute: recorder.calls[0] } : {},
    gas: used,
    fee: feeOf(used, env.prices.wei, 0n),
    unit: 'WEI',
    reverted: revertReason !== undefined,
  };
  if (revertReason !== undefined) result.revertReason = revertReason;
  return result;
}
