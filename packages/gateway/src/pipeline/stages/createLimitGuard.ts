import type { GatewayError } from '../../errors/GatewayError.js';
import type { KeyLimits } from '../../limits/Limiter.js';
import type { RequestContext } from '../RequestContext.js';

/**
 * Remembers, in this process, that a key is over its limits until the limiter's own backoff
 * (or the day's end) passes, so a key that keeps flooding is refused at admission, before its
 * body is read or parsed: its refusals cost the gateway almost nothing and cannot slow the
 * other keys. Only a cache of the limiter's answers: a key whose limits change (a new
 * `limits` object after a settings or plan change) is not held to the old refusal.
 */
export interface LimitGuard {
  /** Throws the remembered refusal (with the time left) while the key is held. */
  check(ctx: RequestContext): void;
  /** Holds the key until `untilMs` (epoch ms) with this refusal. */
  hold(ctx: RequestContext, refusal: GatewayError, untilMs: number): void;
}

/**
 * @example
 * const guard = createLimitGuard();
 * guard.check(ctx); // throws 429 while the key is held
 */
export function createLimitGuard(options: { now?: () => number; maxKeys?: number } = {}): LimitGuard {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const held = new Map<string, { until: number; limits: KeyLimits; refusal: GatewayError }>();
  return {
    check(ctx) {
      if (held.size === 0) return;
      const key = ctx.key!.record.key;
      const entry = held.get(key);
      if (entry === undefined) return;
      if (entry.until <= now() || entry.limits !== ctx.key!.limits) {
        held.delete(key);
        return;
      }
      throw entry.refusal;
    },
    hold(ctx, refusal, untilMs) {
      if (held.size >= maxKeys) held.clear();
      held.set(ctx.key!.record.key, { until: untilMs, limits: ctx.key!.limits, refusal });
    },
  };
}
