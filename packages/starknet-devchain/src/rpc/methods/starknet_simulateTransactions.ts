import { parseTransaction } from '../../chain/parseTransaction.js';
import { invalidParams } from '../../errors.js';
import { toHex } from '../../felt.js';
import { recordInitialReads } from '../../chain/recordInitialReads.js';
import type { StateReader } from '../../chain/state.js';
import { parseBlockId } from '../blockId.js';
import { transactionTrace } from '../transactionTrace.js';
import { type MethodContext, type Params, required } from '../types.js';
import { feeEstimate } from './feeEstimate.js';
import { simulationFlags } from './simulationFlags.js';

/** starknet_simulateTransactions: traces and fees of a sequence of transactions. */
export function starknet_simulateTransactions(
  ctx: MethodContext,
  p: Params,
): Record<string, unknown>[] | { simulated_transactions: Record<string, unknown>[]; initial_reads: unknown } {
  const raw = required(p, 'transactions');
  if (!Array.isArray(raw)) throw invalidParams('transactions: expected an array');
  const txs = raw.map((t) => parseTransaction(t));
  const flags = simulationFlags(p.simulation_flags);
  const chain = ctx.node.chain;
  let recorder: ReturnType<typeof recordInitialReads> | undefined;
  const wrap = (reader: StateReader): StateReader => {
    if (!flags.returnInitialReads) return reader;
    recorder = recordInitialReads(reader);
    return recorder;
  };
  // a reverted transaction is a result (its trace carries the revert reason), not an error: only rejections are
  const results = chain.simulate(txs, parseBlockId(required(p, 'block_id')), { ...flags, keepReverted: true }, wrap);
  const simulated = results.map((r, i) => ({
    transaction_trace: transactionTrace({
      tx: txs[i]!,
      classHash: r.overlay.getClassHashAt(txs[i]!.sender) ?? 0n,
      events: r.events.map((e) => ({ keys: e.keys.map(toHex), data: e.data.map(toHex) })),
      gas: r.gas,
      reverted: r.reverted,
      revertReason: r.revertReason,
      calls: r.calls,
    }),
    fee_estimation: feeEstimate(chain, r),
  }));
  return recorder ? { simulated_transactions: simulated, initial_reads: recorder.initialReads() } : simulated;
}
