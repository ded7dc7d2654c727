import { parseFelt } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';
import { onlyParams } from './devnetParams.js';

/** devnet_stopImpersonateAccount: `account_address` needs valid signatures again (unless auto-impersonation is on). */
export function devnet_stopImpersonateAccount(ctx: MethodContext, p: Params): Record<string, never> {
  onlyParams(p, ['account_address']);
  ctx.node.impersonationOf().remove(parseFelt(required(p, 'account_address'), 'account_address'));
  return {};
}
