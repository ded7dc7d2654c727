import { parseTransaction } from '../../chain/parseTransaction.js';
import { toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_addDeclareTransaction: submit a DECLARE of a Sierra class. */
export function starknet_addDeclareTransaction(
  ctx: MethodContext,
  p: Params,
): { transaction_hash: string; class_hash: string } {
  const t = ctx.node.submit(parseTransaction(required(p, 'declare_transaction'), 'DECLARE'));
  return { transaction_hash: toHex(t.hash), class_hash: toHex(t.tx.classHash ?? 0n) };
}
