import type { MethodContext, Params } from '../types.js';
import { onlyParams } from './devnetParams.js';

/** devnet_autoImpersonate: every sender is impersonated (its INVOKE and DECLARE transactions skip validation). */
export function devnet_autoImpersonate(ctx: MethodContext, p: Params): Record<string, never> {
  onlyParams(p, []);
  ctx.node.impersonationOf().setAuto(true);
  return {};
}
