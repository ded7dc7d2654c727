import type { Limiter } from '../../limits/Limiter.js';
import type { RequestContext } from '../RequestContext.js';
import { limitError } from './limitError.js';

/**
 * Stage "limits": charges `credits` to the key against its per-second rate and its daily credits
 * in one atomic step (a batch is charged whole or refused whole, never half). Throws the 429
 * `-32005` refusal with the data clients back off by (and Retry-After).
 *
 * @example
 * await chargeCredits(ctx, limiter, 80);
 */
export async function chargeCredits(ctx: RequestContext, limiter: Limiter, credits: number): Promise<void> {
  if (credits <= 0) return;
  const decision = await limiter.charge(ctx.key!.record.key, credits, ctx.key!.limits);
  if (!decision.ok) throw limitError(decision);
}
