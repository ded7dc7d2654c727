import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { renderReceiptWithBlock } from '../render.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getTransactionReceipt: a receipt with its block. */
export function starknet_getTransactionReceipt(ctx: MethodContext, p: Params): Record<string, unknown> {
  const t = ctx.node.chain.getTransaction(parseFelt(required(p, 'transaction_hash'), 'transaction_hash'));
  if (!t) throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND);
  return renderReceiptWithBlock(ctx.node.chain, t);
}
