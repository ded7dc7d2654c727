import type { LimitRefusal } from './Limiter.js';

const DAY_MS = 86_400_000;

/**
 * The daily refusal for a key that has used `used` of its `dailyLimit` credits today (UTC),
 * with `resetsAt` the ISO time of the next 00:00 UTC after `now`. Shared by every
 * {@link Limiter} implementation; it allocates a Date, so it is only called on refusal.
 *
 * @example
 * dailyRefusal(100, 60, Date.UTC(2030, 0, 15, 12));
 * // { ok: false, kind: 'daily', dailyLimit: 100, used: 60, resetsAt: '2030-01-16T00:00:00.000Z' }
 */
export function dailyRefusal(dailyLimit: number, used: number, now: number): LimitRefusal {
  const resetsAt = new Date((Math.floor(now / DAY_MS) + 1) * DAY_MS).toISOString();
  return { ok: false, kind: 'daily', dailyLimit, used, resetsAt };
}
