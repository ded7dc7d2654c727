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
  /** The remembered refusal and how long the key stays held, or undefined when it is not held. */
  held(ctx: RequestContext): { refusal: GatewayError; waitMs: number } | undefined;
  /** Holds the key until `untilMs` (epoch ms) with this refusal. */
  hold(ctx: RequestContext, refusal: GatewayError, untilMs: number): void;
}

/**
 * @example
 * const guard = createLimitGuard();
 * const held = guard.held(ctx); // { refusal, waitMs } while the key is held
 */
export function createLimitGuard(options: { now?: () => number; maxKeys?: number } = {}): LimitGuard {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const held = new Map<string, { until: number; limits: KeyLimits; refusal: GatewayError }>();
  return {
    held(ctx) {
      if (held.size === 0) return undefined;
      const key = ctx.key!.record.key;
      const entry = held.get(key);
      if (entry === undefined) return undefined;
      const waitMs = entry.until - now();
      if (waitMs <= 0 || entry.limits !== ctx.key!.limits) {
        held.delete(key);
        return undefined;
      }
      return { refusal: entry.refusal, waitMs };
    },
    hold(ctx, refusal, untilMs) {
      if (held.size >= maxKeys) held.clear();
      held.set(ctx.key!.record.key, { until: untilMs, limits: ctx.key!.limits, refusal });
    },
  };
}
