/**
 * TRANSACTION_TRACE objects: from the recorded call trees when the transaction was run (or run again), with nested
 * calls, each call's own events and messages, validation and fee transfer; else a top-level invocation with the
 * receipt's events.
 */
import type { CallFrame } from '../chain/execute.js';
import type { ProcessResult } from '../chain/processTransaction.js';
import type { Tx } from '../chain/transaction.js';
import { selector } from '../crypto/hashes.js';
import { toHex } from '../felt.js';

/** What a trace is built from, whether simulated or stored. */
export interface TraceInput {
  tx: Tx;
  classHash: bigint;
  events: readonly { keys: readonly string[]; data: readonly string[] }[];
  gas: { l1_gas: number; l1_data_gas: number; l2_gas: number };
  reverted: boolean;
  revertReason?: string | undefined;
  /** The recorded calls; without them the trace is the top-level invocation only. */
  calls?: ProcessResult['calls'] | undefined;
}

/** A recorded call as a FUNCTION_INVOCATION (per-call resources are not measured: the root carries the totals). */
function frameInvocation(f: CallFrame, resources = { l1_gas: 0, l2_gas: 0 }): Record<string, unknown> {
  return {
    contract_address: toHex(f.contractAddress),
    entry_point_selector: toHex(f.selector),
    calldata: f.calldata.map(toHex),
    caller_address: toHex(f.caller),
    class_hash: toHex(f.classHash),
    entry_point_type: f.type,
    call_type: f.callType,
    result: f.result.map(toHex),
    calls: f.calls.map((c) => frameInvocation(c)),
    events: f.events.map((e) => ({ order: e.order, keys: e.keys.map(toHex), data: e.data.map(toHex) })),
    messages: f.messages.map((m) => ({
      order: m.order,
      from_address: toHex(f.contractAddress),
      to_address: toHex(m.to),
      payload: m.payload.map(toHex),
    })),
    execution_resources: resources,
    is_reverted: f.reverted,
  };
}

/** The trace from recorded calls. */
function recordedTrace(t: TraceInput, calls: ProcessResult['calls']): Record<string, unknown> {
  const root = { l1_gas: t.gas.l1_gas, l2_gas: t.gas.l2_gas };
  const out: Record<string, unknown> = { type: t.tx.type, execution_resources: { ...t.gas } };
  if (calls.validate) out.validate_invocation = frameInvocation(calls.validate);
  switch (t.tx.type) {
    case 'INVOKE':
      out.execute_invocation =
        t.reverted || !calls.execute ? { revert_reason: t.revertReason ?? '' } : frameInvocation(calls.execute, root);
      break;
    case 'DEPLOY_ACCOUNT':
      if (calls.construct) out.constructor_invocation = frameInvocation(calls.construct, root);
      break;
    case 'L1_HANDLER':
      if (calls.execute) out.function_invocation = frameInvocation(calls.execute, root);
      break;
    default:
      break;
  }
  if (calls.feeTransfer) out.fee_transfer_invocation = frameInvocation(calls.feeTransfer);
  return out;
}

function invocation(
  t: TraceInput,
  entry: string,
  type: 'EXTERNAL' | 'CONSTRUCTOR' | 'L1_HANDLER',
): Record<string, unknown> {
  return {
    contract_address: toHex(t.tx.sender),
    entry_point_selector: toHex(type === 'L1_HANDLER' ? (t.tx.entryPointSelector ?? 0n) : selector(entry)),
    calldata: t.tx.calldata.map(toHex),
    caller_address: '0x0',
    class_hash: toHex(t.classHash),
    entry_point_type: type,
    call_type: 'CALL',
    result: [],
    calls: [],
    events: t.events.map((e, order) => ({ order, keys: [...e.keys], data: [...e.data] })),
    messages: [],
    execution_resources: { l1_gas: t.gas.l1_gas, l2_gas: t.gas.l2_gas },
    is_reverted: t.reverted,
  };
}

/** The trace of one transaction. */
export function transactionTrace(t: TraceInput): Record<string, unknown> {
  if (t.calls) return recordedTrace(t, t.calls);
  const base = { type: t.tx.type, execution_resources: { ...t.gas } };
  switch (t.tx.type) {
    case 'INVOKE':
      return {
        ...base,
        execute_invocation: t.reverted
          ? { revert_reason: t.revertReason ?? '' }
          : invocation(t, '__execute__', 'EXTERNAL'),
      };
    case 'DEPLOY_ACCOUNT':
      return { ...base, constructor_invocation: invocation(t, 'constructor', 'CONSTRUCTOR') };
    case 'L1_HANDLER':
      return { ...base, function_invocation: invocation(t, '', 'L1_HANDLER') };
    default:
      return base;
  }
}
