import type { Chain, StoredTx } from '../../chain/Chain.js';
import { transactionTrace } from '../transactionTrace.js';

/**
 * The trace of a stored transaction: its block is run again up to it to record its calls; if that fails, the
 * top-level invocation is rebuilt from the receipt.
 */
export function storedTrace(chain: Chain, t: StoredTx): Record<string, unknown> {
  const state = chain.stateAt({ number: t.blockNumber });
  const replayed = chain.replayTransaction(t);
  return transactionTrace({
    calls: replayed?.calls,
    tx: t.tx,
    classHash: state.getClassHashAt(t.tx.sender) ?? 0n,
    events: t.receipt.events,
    gas: t.receipt.execution_resources,
    reverted: t.receipt.execution_status === 'REVERTED',
    revertReason: t.receipt.revert_reason,
  });
}
