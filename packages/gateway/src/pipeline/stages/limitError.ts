import { GatewayError } from '../../errors/GatewayError.js';
import type { LimitRefusal } from '../../limits/Limiter.js';

/**
 * The 429 `-32005` error of a limit refusal: over the rate (`current_rps`, `allowed_rps`,
 * `backoff_seconds`) or over the day's credits (`daily_limit`, `used`, `resets_at`), with the
 * Retry-After the client should honour.
 *
 * @example
 * limitError({ ok: false, kind: 'rate', currentRps: 612, allowedRps: 500, backoffSeconds: 0.3 })
 */
export function limitError(refusal: LimitRefusal): GatewayError {
  if (refusal.kind === 'rate') {
    return new GatewayError('RATE_LIMITED', 'project ID request rate exceeded', {
      refusal: 'rate',
      data: {
        current_rps: refusal.currentRps,
        allowed_rps: refusal.allowedRps,
        backoff_seconds: refusal.backoffSeconds,
      },
      retryAfterSeconds: refusal.backoffSeconds,
    });
  }
  const wait = Math.max(1, (Date.parse(refusal.resetsAt) - Date.now()) / 1000);
  return new GatewayError('RATE_LIMITED', 'daily credit limit exceeded', {
    refusal: 'daily',
    data: { daily_limit: refusal.dailyLimit, used: refusal.used, resets_at: refusal.resetsAt },
    retryAfterSeconds: wait,
  });
}
