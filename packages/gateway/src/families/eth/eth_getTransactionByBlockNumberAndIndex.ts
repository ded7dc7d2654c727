import type { Reroute } from '../types.js';
import { normalizePendingTransaction } from './normalizePending.js';

/**
 * eth_getTransactionByBlockNumberAndIndex("pending", i) is answered from the pending block
 * (anvil answers null even when the pending block holds the transaction), with the pending
 * transaction's null `blockHash`, `blockNumber` and `transactionIndex`.
 *
 * @example
 * eth_getTransactionByBlockNumberAndIndex('0x0') // { method: 'eth_getBlockByNumber', params: ['pending', true], … }
 */
export function eth_getTransactionByBlockNumberAndIndex(index: string): Reroute {
  const i = Number.parseInt(index, 16);
  return {
    method: 'eth_getBlockByNumber',
    params: ['pending', true],
    finish: (block) => {
      const txs = (block as { transactions?: unknown[] } | null)?.transactions;
      const tx = Array.isArray(txs) ? txs[i] : undefined;
      return typeof tx === 'object' && tx !== null ? normalizePendingTransaction(tx) : null;
    },
  };
}
