import { parseBlockId } from '../blockId.js';
import { renderBlockHeader, renderPendingHeader } from '../render.js';
import { transactionRenderer } from '../transactionRenderer.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getBlockWithTxs: block header and full transactions. */
export function starknet_getBlockWithTxs(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const r = chain.resolve(parseBlockId(required(p, 'block_id')));
  const renderTransaction = transactionRenderer(p.response_flags);
  if (r.kind === 'pending')
    return { ...renderPendingHeader(chain, r.pending), transactions: r.pending.txs.map(renderTransaction) };
  return { ...renderBlockHeader(chain, r.block), transactions: r.block.txs.map(renderTransaction) };
}
