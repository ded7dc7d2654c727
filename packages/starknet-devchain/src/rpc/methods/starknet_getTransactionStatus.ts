import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { finalityOf } from '../render.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getTransactionStatus: finality and execution status. */
export function starknet_getTransactionStatus(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const t = chain.getTransaction(parseFelt(required(p, 'transaction_hash'), 'transaction_hash'));
  if (!t) throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND);
  const out: Record<string, unknown> = {
    finality_status: finalityOf(chain, t),
    execution_status: t.receipt.execution_status,
  };
  if (t.receipt.revert_reason !== undefined) out.failure_reason = t.receipt.revert_reason;
  return out;
}
