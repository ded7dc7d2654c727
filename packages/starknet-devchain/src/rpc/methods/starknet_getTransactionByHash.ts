import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { transactionRenderer } from '../transactionRenderer.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getTransactionByHash: a transaction by hash. */
export function starknet_getTransactionByHash(ctx: MethodContext, p: Params): Record<string, unknown> {
  const render = transactionRenderer(p.response_flags);
  const t = ctx.node.chain.getTransaction(parseFelt(required(p, 'transaction_hash'), 'transaction_hash'));
  if (!t) throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND);
  return render(t);
}
