import { DevchainError, ErrorCode } from '../../errors.js';
import { parseBlockId } from '../blockId.js';
import { transactionRenderer } from '../transactionRenderer.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getTransactionByBlockIdAndIndex: a transaction by position. */
export function starknet_getTransactionByBlockIdAndIndex(ctx: MethodContext, p: Params): Record<string, unknown> {
  const render = transactionRenderer(p.response_flags);
  const r = ctx.node.chain.resolve(parseBlockId(required(p, 'block_id')));
  const index = required(p, 'index');
  const txs = r.kind === 'pending' ? r.pending.txs : r.block.txs;
  const t = typeof index === 'number' && Number.isInteger(index) && index >= 0 ? txs[index] : undefined;
  if (!t) throw new DevchainError(ErrorCode.INVALID_TXN_INDEX);
  return render(t);
}
