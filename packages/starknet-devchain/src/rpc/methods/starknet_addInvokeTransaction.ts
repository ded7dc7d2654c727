import { parseTransaction } from '../../chain/parseTransaction.js';
import { toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_addInvokeTransaction: submit an INVOKE. */
export function starknet_addInvokeTransaction(ctx: MethodContext, p: Params): { transaction_hash: string } {
  const t = ctx.node.submit(parseTransaction(required(p, 'invoke_transaction'), 'INVOKE'));
  return { transaction_hash: toHex(t.hash) };
}
