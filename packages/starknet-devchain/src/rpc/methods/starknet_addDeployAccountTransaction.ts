import { parseTransaction } from '../../chain/parseTransaction.js';
import { toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_addDeployAccountTransaction: submit a DEPLOY_ACCOUNT. */
export function starknet_addDeployAccountTransaction(
  ctx: MethodContext,
  p: Params,
): { transaction_hash: string; contract_address: string } {
  const t = ctx.node.submit(parseTransaction(required(p, 'deploy_account_transaction'), 'DEPLOY_ACCOUNT'));
  return { transaction_hash: toHex(t.hash), contract_address: toHex(t.tx.sender) };
}
