import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import { GatewayError } from '../../../errors/GatewayError.js';
import type { Limiter } from '../../../limits/Limiter.js';
import type { Logger } from '../../../log/createLogger.js';
import type { Member } from '../../members/createMember.js';
import { sleepUnlessAborted } from '../../sleepUnlessAborted.js';
import type { NetworkCall } from '../../types.js';

/** What the budget layer counted (read by `Network.counters()`). */
export interface BudgetCounts {
  /** Calls that waited because every upstream that could take them was at its budget. */
  waits: number;
  /** Calls answered -32005 because none had room before their deadline. */
  exhausted: number;
}

/** The budget layer: whether an upstream's budget has room for one more request. */
export interface BudgetLayer {
  /**
   * Charges one request of `call` to `m`'s budget: 0 when it may be sent now, else the ms until
   * the budget may have room (nothing charged). Synchronous 0 for an upstream without a budget.
   */
  take(m: Member, call: NetworkCall): number | Promise<number>;
  /**
   * Every upstream that could take `call` is at its budget for `waitMs`: waits that long when it
   * ends before the call's deadline (or within 10 s of waiting for a call without one) and
   * resolves true; resolves false when it would not. Throws `ClientGoneError` when the caller
   * left meanwhile.
   */
  wait(call: NetworkCall, waitMs: number): Promise<boolean>;
  /** The error of a call no upstream had room for: -32005 with `Retry-After`. */
  exhausted(call: NetworkCall, waitMs: number): GatewayError;
}

/** The longest a call without a deadline waits for budgets in all. */
const UNBOUNDED_WAIT_MS = 10_000;

/**
 * The budget layer of a network: each upstream with a `rateLimit` is charged one request (or the
 * method's credits) in `limiter` before anything is sent to it, under the key
 * `<network>/<role>/<upstream>` — the limiter the gateway's instances share in Redis (its own key
 * prefix), so together they never send the provider more than its plan allows; while Redis is
 * away, each instance counts alone (`createSharedLimiter`). The rate charged against is the
 * budget's rate in force (`createUpstreamBudget`: lower after a 429, relaxing back). An
 * upstream at its budget is skipped as if it were busy (the select and retry layers go on to
 * the next); a call no upstream has room for waits for the soonest, within its deadline, and
 * only then gets -32005 (`UPSTREAM_BUDGET`). A limiter that fails (not Redis being away: that
 * has its fallback) lets the request go rather than stop traffic.
 *
 * @example
 * const budgets = createBudgetLayer('mainnet', limiter, counts, Date.now, log);
 * const wait = await budgets.take(member, call); // 0: send it
 */
export function createBudgetLayer(
  network: string,
  limiter: Limiter,
  counts: BudgetCounts,
  now: () => number,
  log?: Logger,
): BudgetLayer {
  let warned = false;
  /** Time each call spent waiting for budgets (calls without a deadline only). */
  const waited = new WeakMap<NetworkCall, number>();
  return {
    take(m, call) {
      const b = m.budget;
      if (b === undefined) return 0;
      const cost = b.unit === 'requests' ? 1 : call.traits.credits;
      const t = now();
      // the limiter admits while the second's count is below its rate, then adds the charge:
      // lowered by the cost (less one), the charge itself never takes the count past the rate
      // (a call that costs more than the whole rate goes alone, when nothing else is counted)
      const rate = Math.max(b.rate(t) - cost + 1, 1e-6);
      return limiter
        .charge(`${network}/${m.role}/${m.upstream.name}`, cost, { creditsPerSecond: rate, creditsPerDay: Infinity }, t)
        .then(
          (d) => {
            if (d.ok) return 0;
            b.spent();
            return d.kind === 'rate' ? Math.ceil(d.backoffSeconds * 1000) : 1_000;
          },
          (err: unknown) => {
            if (!warned) {
              warned = true;
              log?.warn('upstream budget could not be counted: requests go without it', {
                network,
                error: err instanceof Error ? err.message : String(err),
              });
            }
            return 0;
          },
        );
    },
    async wait(call, waitMs) {
      const deadline = call.options?.deadline;
      if (deadline !== undefined) {
        if (now() + waitMs > deadline - 100) return false;
      } else {
        const spent = waited.get(call) ?? 0;
        if (spent + waitMs > UNBOUNDED_WAIT_MS) return false;
        waited.set(call, spent + waitMs);
      }
      counts.waits += 1;
      await sleepUnlessAborted(waitMs, call.signal);
      if (call.signal?.aborted) throw new ClientGoneError();
      return true;
    },
    exhausted(call, waitMs) {
      counts.exhausted += 1;
      const seconds = Math.max(0.05, Math.ceil(waitMs / 10) / 100);
      return new GatewayError(
        'UPSTREAM_BUDGET',
        `upstream request budget exhausted for network ${network}: every upstream that serves ${call.method} is at its rate limit; retry in ${seconds} s`,
        { data: { network, reason: 'upstream-budget', backoff_seconds: seconds }, retryAfterSeconds: seconds },
      );
    },
  };
}
