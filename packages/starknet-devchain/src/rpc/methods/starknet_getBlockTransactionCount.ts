import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getBlockTransactionCount: number of transactions in a block. */
export function starknet_getBlockTransactionCount(ctx: MethodContext, p: Params): number {
  const r = ctx.node.chain.resolve(parseBlockId(required(p, 'block_id')));
  return r.kind === 'pending' ? r.pending.txs.length : r.block.txs.length;
}
