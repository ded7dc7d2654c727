import { parseBlockId } from '../blockId.js';
import { renderBlockHeader, renderPendingHeader, renderReceipt } from '../render.js';
import { transactionRenderer } from '../transactionRenderer.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getBlockWithReceipts: block header with transactions and their receipts. */
export function starknet_getBlockWithReceipts(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const r = chain.resolve(parseBlockId(required(p, 'block_id')));
  const txs = r.kind === 'pending' ? r.pending.txs : r.block.txs;
  const renderTransaction = transactionRenderer(p.response_flags);
  const transactions = txs.map((t) => ({ transaction: renderTransaction(t), receipt: renderReceipt(chain, t) }));
  if (r.kind === 'pending') return { ...renderPendingHeader(chain, r.pending), transactions };
  return { ...renderBlockHeader(chain, r.block), transactions };
}
