import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { Logger } from '../log/createLogger.js';
import { isRedisOutage } from '../redis/isRedisOutage.js';
import type { RedisLimiter } from './createRedisLimiter.js';
import type { KeyLimits, LimitDecision, Limiter } from './Limiter.js';
import { ADMITTED_AT_ONCE } from './admittedAtOnce.js';

const DAY_MS = 86_400_000;
/** Keys remembered for the degraded path (last known use, credits to hand back); beyond it the oldest go. */
const MAX_KEYS = 100_000;

/** A limiter that keeps limiting while its shared store is away. */
export interface DegradingLimiter extends Limiter {
  /** True while charges are counted in this instance's memory (Redis away). */
  degraded(): boolean;
}

/** Options of {@link createDegradingLimiter}. */
export interface DegradingLimiterOptions {
  /** The shared limiter (Redis), built with `observe` wired to this limiter's `observe`. */
  readonly primary: RedisLimiter;
  /** Makes this instance's own limiter (memory), used while `health` is down: a fresh one for each outage. */
  readonly fallback: () => Limiter;
  /** Redis's health (`watchRedis`): down on the first timeout or lost connection, up when a probe answers. */
  readonly health: DependencyHealth;
  readonly log?: Logger | undefined;
  readonly now?: () => number;
}

/**
 * The limiter with Redis, and **what happens when Redis is away**: it fails open to a local
 * limit per instance. While Redis is down (a command timed out, the connection closed; see
 * `watchRedis`) every charge is counted in this instance's memory limiter with the key's full
 * limits: its per-second rate is held per instance (N instances may admit up to N times the
 * rate between them), and its daily credits start from what Redis last said the key had used
 * today (as seen by this instance), so a key that had used its day stays refused. No charge
 * waits on Redis once it is known to be down; a charge made while it is going down waits at
 * most one command timeout. Credits admitted locally are handed back to Redis when it returns
 * (added to the day's total only, not to the current second's window), so the day's count is
 * whole again. Entering and leaving the degraded state is logged once each; `degraded()` is
 * the `nodegate_limiter_degraded` gauge.
 *
 * @example
 * let limiter: DegradingLimiter;
 * const primary = createRedisLimiter(redis, { prefix, observe: (k, d, u) => limiter.observe(k, d, u) });
 * limiter = createDegradingLimiter({ primary, fallback: () => createMemoryLimiter(), health: watchRedis(redis, …), log });
 */
export function createDegradingLimiter(options: DegradingLimiterOptions): DegradingLimiter & {
  /** Wire to the Redis limiter's `observe`: the key's credits used on `day`, as Redis counted them. */
  observe(key: string, day: number, used: number): void;
} {
  const { primary, health, log } = options;
  let fallback = options.fallback();
  const clock = options.now ?? Date.now;
  /** What Redis last said each key had used, and on which day. */
  const known = new Map<string, { day: number; used: number }>();
  /** Credits admitted locally while Redis was away, per key and day, to hand back. */
  const owed = new Map<string, { day: number; credits: number }>();
  let degradedSince: number | undefined;
  let replaying: Promise<void> | undefined;

  const bounded = <V>(map: Map<string, V>, key: string, value: V) => {
    if (!map.has(key) && map.size >= MAX_KEYS) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(key, value);
  };

  const owe = (key: string, credits: number, t: number) => {
    if (credits <= 0) return;
    const day = Math.floor(t / DAY_MS);
    const o = owed.get(key);
    if (o !== undefined && o.day === day) o.credits += credits;
    else bounded(owed, key, { day, credits });
  };

  /** Hands credits admitted locally back to Redis (same day only); what fails stays owed. */
  const replay = (): Promise<void> => {
    replaying ??= (async () => {
      const today = Math.floor(clock() / DAY_MS);
      let handed = 0;
      for (const [key, o] of [...owed]) {
        if (!health.up()) break;
        owed.delete(key);
        if (o.day !== today) continue;
        try {
          await primary.addToDay(key, o.credits);
          handed += 1;
        } catch (err) {
          const again = owed.get(key);
          if (again !== undefined && again.day === o.day) again.credits += o.credits;
          else owed.set(key, o);
          if (isRedisOutage(err)) health.failed(err);
          break;
        }
      }
      if (handed > 0) log?.info('limiter: credits admitted during the Redis outage handed back', { keys: handed });
    })().finally(() => {
      replaying = undefined;
    });
    return replaying;
  };

  health.onChange((up) => {
    if (!up && degradedSince === undefined) {
      degradedSince = clock();
      // counted from what Redis last said: what an earlier outage counted here was handed back since
      const previous = fallback;
      fallback = options.fallback();
      void previous.close();
      log?.warn(
        'limiter degraded: Redis is unavailable; each instance applies every key\u2019s limits in its own memory',
        {
          dependency: 'redis',
        },
      );
    } else if (up && degradedSince !== undefined) {
      log?.warn('limiter shared again: Redis is back', { dependency: 'redis', degradedMs: clock() - degradedSince });
      degradedSince = undefined;
      void replay();
    }
  });

  /** The key's daily limit as the local limiter sees it: what Redis last counted is already spent. */
  const baseline = (key: string, t: number) => {
    const k = known.get(key);
    return k !== undefined && k.day === Math.floor(t / DAY_MS) ? k.used : 0;
  };

  const chargeLocally = async (key: string, credits: number, limits: KeyLimits, t: number): Promise<LimitDecision> => {
    const spent = baseline(key, t);
    const local: KeyLimits =
      spent === 0 ? limits : { ...limits, creditsPerDay: Math.max(0, limits.creditsPerDay - spent) };
    const decision = await fallback.charge(key, credits, local, t);
    if (decision.ok) {
      owe(key, credits, t);
      return decision;
    }
    if (decision.kind === 'daily' && spent > 0) {
      return { ...decision, dailyLimit: limits.creditsPerDay, used: decision.used + spent };
    }
    return decision;
  };

  /** Whether a primary failure sends this call to the local path (and takes Redis down when it is away). */
  const degrade = (err: unknown): boolean => {
    if (err instanceof RangeError) return false;
    if (isRedisOutage(err)) health.failed(err);
    return true;
  };

  return {
    observe(key, day, used) {
      const k = known.get(key);
      if (k !== undefined) {
        k.day = day;
        k.used = used;
      } else bounded(known, key, { day, used });
    },

    degraded: () => !health.up(),

    charge(key, credits, limits, now) {
      const t = Math.floor(now ?? clock());
      if (!health.up()) return chargeLocally(key, credits, limits, t);
      let deciding: Promise<LimitDecision>;
      try {
        deciding = primary.charge(key, credits, limits, t);
      } catch (err) {
        deciding = Promise.reject(err);
      }
      // admitted at once (a lease): handed on as it is, no frame of this wrapper
      if (deciding === ADMITTED_AT_ONCE) return deciding;
      return deciding.catch((err: unknown) => {
        if (!degrade(err)) throw err;
        return chargeLocally(key, credits, limits, t);
      });
    },

    async record(key, credits, now) {
      const t = Math.floor(now ?? clock());
      if (health.up()) {
        try {
          return await primary.record(key, credits, t);
        } catch (err) {
          if (!degrade(err)) throw err;
        }
      }
      await fallback.record(key, credits, t);
      owe(key, credits, t);
    },

    async usedToday(key, now) {
      const t = Math.floor(now ?? clock());
      if (health.up()) {
        try {
          return await primary.usedToday(key, t);
        } catch (err) {
          if (!degrade(err)) throw err;
        }
      }
      const o = owed.get(key);
      const day = Math.floor(t / DAY_MS);
      return baseline(key, t) + (o !== undefined && o.day === day ? o.credits : 0);
    },

    async close() {
      if (health.up() && owed.size > 0) await replay();
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
