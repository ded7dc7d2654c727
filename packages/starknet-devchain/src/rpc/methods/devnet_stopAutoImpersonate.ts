import type { MethodContext, Params } from '../types.js';
import { onlyParams } from './devnetParams.js';

/** devnet_stopAutoImpersonate: only the addresses given to devnet_impersonateAccount stay impersonated. */
export function devnet_stopAutoImpersonate(ctx: MethodContext, p: Params): Record<string, never> {
  onlyParams(p, []);
  ctx.node.impersonationOf().setAuto(false);
  return {};
}
