/** Minimal TRANSACTION_TRACE objects (top-level invocation with its events; no nested calls). */
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
