/**
 * The pending block has no identity yet: nodegate answers with null `hash`, `logsBloom`,
 * `nonce` and `number` whatever the upstream returns (anvil fills them in), and its
 * transactions with null `blockHash`, `blockNumber` and `transactionIndex`.
 *
 * @example
 * normalizePendingBlock({ number: '0x5', hash: '0xab…', transactions: [] })
 * // { number: null, hash: null, logsBloom: null, nonce: null, transactions: [] }
 */
export function normalizePendingBlock(block: unknown): unknown {
  if (!isObject(block)) return block;
  const out: Record<string, unknown> = { ...block, hash: null, logsBloom: null, nonce: null, number: null };
  if (Array.isArray(block.transactions)) {
    out.transactions = block.transactions.map((tx) => (isObject(tx) ? normalizePendingTransaction(tx) : tx));
  }
  return out;
}

/** A transaction that is not in a block yet: null `blockHash`, `blockNumber`, `transactionIndex`. */
export function normalizePendingTransaction(tx: unknown): unknown {
  if (!isObject(tx)) return tx;
  return { ...tx, blockHash: null, blockNumber: null, transactionIndex: null };
}

/** A transaction looked up by hash is pending when the upstream gives it no block. */
export function normalizeTransactionByHash(tx: unknown): unknown {
  if (!isObject(tx)) return tx;
  return tx.blockHash == null || tx.blockNumber == null ? normalizePendingTransaction(tx) : tx;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
