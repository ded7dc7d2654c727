import type { LimitRefusal } from './Limiter.js';

/**
 * The rate refusal for a key whose sliding-window estimate has reached `allowedRps`, built
 * from the window's two 1-second buckets. Shared by every {@link Limiter} implementation so
 * they report identical numbers.
 *
 * The estimate is `prev × (1000 − msIntoSecond) / 1000 + cur`: the previous bucket weighted by
 * how much of it still overlaps the last second (Cloudflare's sliding-window counter).
 * `backoffSeconds` is how long, with no further charges, until the estimate is strictly below
 * `allowedRps`, rounded up to 10 ms and at least 0.05 s. A key allowed 0 credits/s is refused
 * forever; its backoff is 1 s.
 *
 * @param prev credits charged in the previous 1-second bucket
 * @param cur credits charged in the current 1-second bucket
 * @param msIntoSecond milliseconds elapsed in the current bucket (0–999)
 * @param allowedRps the key's credits per second
 *
 * @example
 * rateRefusal(0, 250, 500, 100);
 * // { ok: false, kind: 'rate', currentRps: 250, allowedRps: 100, backoffSeconds: 1.11 }
 */
export function rateRefusal(prev: number, cur: number, msIntoSecond: number, allowedRps: number): LimitRefusal {
  const estimate = (prev * (1000 - msIntoSecond) + cur * 1000) / 1000;
  let waitMs: number;
  if (!(allowedRps > 0)) {
    waitMs = 1000;
  } else if (cur >= allowedRps) {
    // Only the current bucket's decay, after it has become the previous one, can help.
    waitMs = 1000 - msIntoSecond + 1000 * (1 - allowedRps / cur);
  } else {
    // prev > 0 here: the previous bucket's weight falls until the estimate drops below.
    waitMs = 1000 - ((allowedRps - cur) * 1000) / prev - msIntoSecond;
  }
  // +1 ms: at the exact crossing the estimate equals the limit, which still refuses.
  const backoffSeconds = Math.max(0.05, Math.ceil((waitMs + 1) / 10) / 100);
  return { ok: false, kind: 'rate', currentRps: Math.round(estimate), allowedRps, backoffSeconds };
}
