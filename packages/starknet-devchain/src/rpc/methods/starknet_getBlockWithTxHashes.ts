import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { renderBlockHeader, renderPendingHeader } from '../render.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getBlockWithTxHashes: block header and transaction hashes. */
export function starknet_getBlockWithTxHashes(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const r = chain.resolve(parseBlockId(required(p, 'block_id')));
  if (r.kind === 'pending')
    return { ...renderPendingHeader(chain, r.pending), transactions: r.pending.txs.map((t) => toHex(t.hash)) };
  return { ...renderBlockHeader(chain, r.block), transactions: r.block.txs.map((t) => toHex(t.hash)) };
}
