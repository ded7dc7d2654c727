import type { Limiter } from '../../limits/Limiter.js';
import type { RequestContext } from '../RequestContext.js';
import type { LimitGuard } from './createLimitGuard.js';
import { limitError } from './limitError.js';

/**
 * Stage "limits": charges `credits` to the key against its per-second rate and its daily credits
 * in one atomic step (a batch is charged whole or refused whole, never half). Throws the 429
 * `-32005` refusal with the data clients back off by (and Retry-After).
 *
 * @example
 * await chargeCredits(ctx, limiter, guard, 80);
 */
export async function chargeCredits(
  ctx: RequestContext,
  limiter: Limiter,
  guard: LimitGuard,
  credits: number,
): Promise<void> {
  if (credits <= 0) return;
  const decision = await limiter.charge(ctx.key!.record.key, credits, ctx.key!.limits);
  if (decision.ok) return;
  const err = limitError(decision);
  // held until the limiter would admit again: later requests are refused before their body is read
  guard.hold(
    ctx,
    err,
    decision.kind === 'rate' ? Date.now() + decision.backoffSeconds * 1000 : Date.parse(decision.resetsAt),
  );
  throw err;
}
