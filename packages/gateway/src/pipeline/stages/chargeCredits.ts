import { ADMITTED_AT_ONCE } from '../../limits/admittedAtOnce.js';
import type { LimitDecision, Limiter } from '../../limits/Limiter.js';
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
 * in one atomic step (a batch is charged whole or refused whole, never half). Rejects with the 429
 * `-32005` refusal with the data clients back off by (and Retry-After). Returns undefined when the
 * limiter admitted it at once (`ADMITTED_AT_ONCE`): nothing to await, no frame per request.
 *
 * @example
 * const charging = chargeCredits(ctx, limiter, guard, 80);
 * if (charging !== undefined) await charging;
 */
export function chargeCredits(
  ctx: RequestContext,
  limiter: Limiter,
  guard: LimitGuard,
  credits: number,
): Promise<void> | undefined {
  if (credits <= 0) return undefined;
  let deciding: Promise<LimitDecision>;
  try {
    deciding = limiter.charge(ctx.key!.record.key, credits, ctx.key!.limits);
  } catch (err) {
    return Promise.reject(err);
  }
  return deciding === ADMITTED_AT_ONCE ? undefined : settle(ctx, guard, deciding);
}

/** A charge the limiter decides later (Redis): refused → the key held as the refusal says, and thrown. */
async function settle(ctx: RequestContext, guard: LimitGuard, deciding: Promise<LimitDecision>): Promise<void> {
  const decision = await deciding;
  if (decision.ok) return;
  const err = limitError(decision);
  // held until the limiter would admit anything again: later requests are refused before their
  // body is read (a day that still has credits left may admit a smaller request: not held)
  if (decision.kind === 'rate') guard.hold(ctx, err, Date.now() + decision.backoffSeconds * 1000);
  else if (decision.used >= decision.dailyLimit) guard.hold(ctx, err, Date.parse(decision.resetsAt));
  throw err;
}
