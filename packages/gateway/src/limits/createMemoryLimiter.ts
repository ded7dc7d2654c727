import { checkCharge } from './checkCharge.js';
import { dailyRefusal } from './dailyRefusal.js';
import type { KeyLimits, LimitDecision, Limiter } from './Limiter.js';
import { rateRefusal } from './rateRefusal.js';
import { ADMITTED_AT_ONCE } from './admittedAtOnce.js';

const DAY_MS = 86_400_000;

/** One key's counters, mutated in place (no allocation per charge). */
interface Counters {
  /** Current 1-second bucket: floor(now / 1000). */
  bucket: number;
  /** Credits in the current bucket. */
  cur: number;
  /** Credits in the previous bucket. */
  prev: number;
  /** Current UTC day: floor(now / 86 400 000). */
  day: number;
  /** Credits used in `day`. */
  used: number;
}

const DONE: Promise<void> = Promise.resolve();

/**
 * A {@link Limiter} for one gateway process: per key, a sliding-window rate counter (two
 * 1-second buckets, the previous one weighted by its overlap with the last second) and a
 * per-UTC-day credit counter, in a Map. Same semantics as `createRedisLimiter` (one contract
 * suite runs both).
 *
 * Hot path: one Map lookup and a few arithmetic operations; an admitted charge of a known key
 * allocates nothing (it returns a shared resolved promise). Keys idle since before today are
 * swept once per new UTC day, so memory holds at most about two days of active keys.
 *
 * `options.now` (epoch ms) replaces `Date.now`; a `now` passed to a call wins over both.
 *
 * @example
 * const limiter = createMemoryLimiter();
 * const decision = await limiter.charge('key-id', 1, { creditsPerSecond: 100, creditsPerDay: 100_000 });
 * if (!decision.ok && decision.kind === 'rate') console.log(`retry in ${decision.backoffSeconds}s`);
 */
export function createMemoryLimiter(options: { now?: () => number } = {}): Limiter {
  const clock = options.now ?? Date.now;
  const counters = new Map<string, Counters>();
  let sweptDay = Number.NEGATIVE_INFINITY;

  /** The key's counters rolled forward to `now`; `msInto` is set to the ms into its bucket. */
  let msInto = 0;
  function counted(key: string, now: number): Counters {
    const bucket = Math.floor(now / 1000);
    const day = Math.floor(now / DAY_MS);
    if (day > sweptDay) sweep(day, bucket);
    let c = counters.get(key);
    if (c === undefined) {
      c = { bucket, cur: 0, prev: 0, day, used: 0 };
      counters.set(key, c);
    }
    msInto = now - bucket * 1000;
    if (bucket > c.bucket) {
      c.prev = bucket === c.bucket + 1 ? c.cur : 0;
      c.cur = 0;
      c.bucket = bucket;
    } else if (bucket < c.bucket) {
      // Time went backwards (injected clock): count into the newest bucket, fully weighted.
      msInto = 0;
    }
    if (day > c.day) {
      c.day = day;
      c.used = 0;
    }
    return c;
  }

  function sweep(day: number, bucket: number): void {
    sweptDay = day;
    for (const [key, c] of counters) {
      if (c.day < day && c.bucket < bucket - 1) counters.delete(key);
    }
  }

  return {
    charge(key: string, credits: number, limits: KeyLimits, now?: number): Promise<LimitDecision> {
      const invalid = checkCharge(credits, limits);
      if (invalid !== undefined) return Promise.reject(invalid);
      const t = Math.floor(now ?? clock());
      const c = counted(key, t);
      const perDay = limits.creditsPerDay;
      if (c.used + credits > perDay) return Promise.resolve(dailyRefusal(perDay, c.used, t));
      const perSecond = limits.creditsPerSecond;
      if (c.prev * (1000 - msInto) + c.cur * 1000 >= perSecond * 1000) {
        return Promise.resolve(rateRefusal(c.prev, c.cur, msInto, perSecond));
      }
      c.cur += credits;
      c.used += credits;
      return ADMITTED_AT_ONCE;
    },

    record(key: string, credits: number, now?: number): Promise<void> {
      const invalid = checkCharge(credits, undefined);
      if (invalid !== undefined) return Promise.reject(invalid);
      const c = counted(key, Math.floor(now ?? clock()));
      c.cur += credits;
      c.used += credits;
      return DONE;
    },

    usedToday(key: string, now?: number): Promise<number> {
      const c = counters.get(key);
      const day = Math.floor(Math.floor(now ?? clock()) / DAY_MS);
      return Promise.resolve(c !== undefined && c.day >= day ? c.used : 0);
    },

    close(): Promise<void> {
      counters.clear();
      return DONE;
    },
  };
}
