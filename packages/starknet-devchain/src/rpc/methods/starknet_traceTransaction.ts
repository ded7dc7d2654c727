import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';
import { storedTrace } from './storedTrace.js';

/** starknet_traceTransaction: the (top-level) trace of a stored transaction. */
export function starknet_traceTransaction(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const t = chain.getTransaction(parseFelt(required(p, 'transaction_hash'), 'transaction_hash'));
  if (!t) throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND);
  return storedTrace(chain, t);
}
