import type { ProcessResult } from '../../chain/processTransaction.js';
import { parseTransaction } from '../../chain/parseTransaction.js';
import type { Tx } from '../../chain/transaction.js';
import { selector } from '../../crypto/hashes.js';
import { invalidParams } from '../../errors.js';
import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';
import { feeEstimate } from './feeEstimate.js';
import { simulationFlags } from './simulationFlags.js';

function invocation(tx: Tx, r: ProcessResult, entry: string, calldata: bigint[]): Record<string, unknown> {
  return {
    contract_address: toHex(tx.sender),
    entry_point_selector: toHex(selector(entry)),
    calldata: calldata.map(toHex),
    caller_address: '0x0',
    class_hash: toHex(r.overlay.getClassHashAt(tx.sender) ?? 0n),
    entry_point_type: entry === 'constructor' ? 'CONSTRUCTOR' : 'EXTERNAL',
    call_type: 'CALL',
    result: [],
    calls: [],
    events: r.events.map((e, order) => ({ order, keys: e.keys.map(toHex), data: e.data.map(toHex) })),
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: r.gas.l2_gas },
    is_reverted: r.reverted,
  };
}

function trace(tx: Tx, r: ProcessResult): Record<string, unknown> {
  const base = { type: tx.type, execution_resources: { ...r.gas } };
  switch (tx.type) {
    case 'INVOKE':
      return {
        ...base,
        execute_invocation: r.reverted
          ? { revert_reason: r.revertReason }
          : invocation(tx, r, '__execute__', tx.calldata),
      };
    case 'DEPLOY_ACCOUNT':
      return { ...base, constructor_invocation: invocation(tx, r, 'constructor', tx.calldata) };
    default:
      return base;
  }
}

/** starknet_simulateTransactions: traces and fees of a sequence of transactions. */
export function starknet_simulateTransactions(ctx: MethodContext, p: Params): Record<string, unknown>[] {
  const raw = required(p, 'transactions');
  if (!Array.isArray(raw)) throw invalidParams('transactions: expected an array');
  const txs = raw.map((t) => parseTransaction(t));
  const flags = simulationFlags(p.simulation_flags);
  const chain = ctx.node.chain;
  const results = chain.simulate(txs, parseBlockId(required(p, 'block_id')), flags);
  return results.map((r, i) => ({
    transaction_trace: trace(txs[i]!, r),
    fee_estimation: feeEstimate(chain, txs[i]!, r),
  }));
}
