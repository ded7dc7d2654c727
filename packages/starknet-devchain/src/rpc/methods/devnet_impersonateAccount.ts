import { parseFelt } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';
import { onlyParams } from './devnetParams.js';

/**
 * devnet_impersonateAccount: transactions (INVOKE, DECLARE) from `account_address` are accepted without running its
 * validation, so without its signature, until devnet_stopImpersonateAccount. Unlike starknet-devnet (which
 * impersonates only accounts of a forked origin), any address is taken, local accounts included.
 */
export function devnet_impersonateAccount(ctx: MethodContext, p: Params): Record<string, never> {
  onlyParams(p, ['account_address']);
  ctx.node.impersonationOf().add(parseFelt(required(p, 'account_address'), 'account_address'));
  return {};
}
