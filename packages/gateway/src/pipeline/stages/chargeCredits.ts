import type { Limiter } from '../../limits/Limiter.js';
import type { RequestContext } from '../RequestContext.js';
import type { LimitGuard } from './createLimitGuard.js';
import { limitError } from './limitError.js';

/**
 * Credits an invalid or unknown call costs by default (`limits.invalidCallCredits`): a body that
 * is not JSON, an envelope that is not a request, a method (or IPFS command) no table knows,
 * params that fail the method's schema. As much as the cheapest method (`eth_chainId`), so a
 * key's flood of errors counts against its per-second rate and daily credits like any other
 * traffic. Calls refused by the key's own rules (403) are not charged.
 */
export const INVALID_CALL_CREDITS = 5;

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
  // held until the limiter would admit anything again: later requests are refused before their
  // body is read (a day that still has credits left may admit a smaller request: not held)
  if (decision.kind === 'rate') guard.hold(ctx, err, Date.now() + decision.backoffSeconds * 1000);
  else if (decision.used >= decision.dailyLimit) guard.hold(ctx, err, Date.parse(decision.resetsAt));
  throw err;
}
