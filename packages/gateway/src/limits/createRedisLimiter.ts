import type { Redis } from 'ioredis';
import { checkCharge } from './checkCharge.js';
import { dailyRefusal } from './dailyRefusal.js';
import type { KeyLimits, LimitDecision, Limiter } from './Limiter.js';
import { rateRefusal } from './rateRefusal.js';
import { ADMITTED_AT_ONCE } from './admittedAtOnce.js';

const DAY_MS = 86_400_000;

/**
 * The one atomic step of a charge. KEYS[1]: the key's hash. ARGV: now (epoch ms, integer),
 * credits, credits per second, credits per day (-1: no limit; both -1 = record), extra
 * credits to lease, a refund of an earlier lease: its bucket, its day, its credits; and 1 to
 * add the credits to the day's total only (credits admitted elsewhere while Redis was away,
 * which must not fill the current second's window), else 0.
 * Hash fields: b = current 1-second bucket, c = its credits, p = previous bucket's credits,
 * d = UTC day, u = credits used that day. Returns {code, p, c, ms into bucket, u, leased},
 * code 0 = admitted (counters already incremented), 1 = rate refused, 2 = daily refused.
 *
 * The refund is applied after the window rolls and before the checks, to the bucket it was
 * leased in (now current or previous) and to its day. A lease is granted only when the charge
 * itself is admitted, and only as many credits as keep the window's estimate at or under the
 * rate and the day's total at or under its limit, so leased credits never let a key exceed
 * what exact charges would have admitted. Same arithmetic as the memory limiter, in doubles.
 */
const CHARGE_LUA = `
local now = tonumber(ARGV[1])
local credits = tonumber(ARGV[2])
local rps = tonumber(ARGV[3])
local perDay = tonumber(ARGV[4])
local extra = tonumber(ARGV[5])
local refundBucket = tonumber(ARGV[6])
local refundDay = tonumber(ARGV[7])
local refund = tonumber(ARGV[8])
local dayOnly = tonumber(ARGV[9]) == 1
local bucket = math.floor(now / 1000)
local day = math.floor(now / 86400000)
local s = redis.call('HMGET', KEYS[1], 'b', 'c', 'p', 'd', 'u')
local b = tonumber(s[1])
local c = tonumber(s[2]) or 0
local p = tonumber(s[3]) or 0
local d = tonumber(s[4])
local u = tonumber(s[5]) or 0
local ms = now - bucket * 1000
if b == nil or bucket > b then
  if b ~= nil and bucket == b + 1 then p = c else p = 0 end
  c = 0
  b = bucket
elseif bucket < b then
  ms = 0
end
if d == nil or day > d then
  d = day
  u = 0
end
if refund > 0 then
  if refundBucket == b then c = math.max(0, c - refund) elseif refundBucket == b - 1 then p = math.max(0, p - refund) end
  if refundDay == d then u = math.max(0, u - refund) end
end
local code = 0
if perDay >= 0 and u + credits > perDay then
  code = 2
elseif rps >= 0 and p * (1000 - ms) + c * 1000 >= rps * 1000 then
  code = 1
end
local leased = 0
if code == 0 then
  if not dayOnly then c = c + credits end
  u = u + credits
  if extra > 0 then
    leased = extra
    if perDay >= 0 then leased = math.min(leased, perDay - u) end
    if rps >= 0 then leased = math.min(leased, math.floor((rps * 1000 - p * (1000 - ms) - c * 1000) / 1000)) end
    if leased < 0 then leased = 0 end
    c = c + leased
    u = u + leased
  end
elseif refund <= 0 then
  return {code, p, c, ms, u, 0}
end
redis.call('HSET', KEYS[1], 'b', b, 'c', c, 'p', p, 'd', d, 'u', u)
redis.call('PEXPIRE', KEYS[1], (d + 1) * 86400000 - now + 60000)
return {code, p, c, ms, u, leased}
`;

const COMMAND = 'nodegateLimiterCharge';

type ChargeReply = [code: number, prev: number, cur: number, msInto: number, used: number, leased: number];
type WithCharge = Redis & {
  [COMMAND](
    key: string,
    now: number,
    credits: number,
    perSecond: number,
    perDay: number,
    extra: number,
    refundBucket: number,
    refundDay: number,
    refund: number,
    dayOnly: 0 | 1,
  ): Promise<ChargeReply>;
};

/** A {@link Limiter} in Redis, with what the degraded path needs (see `createDegradingLimiter`). */
export interface RedisLimiter extends Limiter {
  /**
   * Adds credits to the key's total for the UTC day of `now` without counting them in its
   * per-second window: credits another limiter admitted while Redis was away, handed back so
   * the day's total stays whole.
   */
  addToDay(key: string, credits: number, now?: number): Promise<void>;
}

/** A command rejected before it was written (the connection was down; no offline queue): Redis never ran it. */
const neverSent = (err: unknown) => err instanceof Error && /isn't writeable|Connection is closed/.test(err.message);

/** Puts unspent leased credits back on `lease` after a refund that never reached Redis (same bucket and day only). */
function giveBack(lease: KeyLease, bucket: number, day: number, credits: number): void {
  if (lease.left === 0 || (lease.bucket === bucket && lease.day === day)) {
    lease.bucket = bucket;
    lease.day = day;
    lease.left += credits;
  }
}

const ADMITTED: LimitDecision = Object.freeze({ ok: true });

/** A leased credit is never spent outside the 1-second bucket it was counted in. */
interface KeyLease {
  /** The bucket and day the leftover credits are counted in, in Redis. */
  bucket: number;
  day: number;
  /** Credits already counted in Redis and not yet spent by a charge here. */
  left: number;
  /** This process's demand for the key: credits asked in the current and previous bucket. */
  demandBucket: number;
  demandCur: number;
  demandPrev: number;
  /** A leasing call is in flight: other charges go exact meanwhile (one lease at a time). */
  leasing: boolean;
  /** `Date.now()` of the key's last charge here, for the idle sweep. */
  touched: number;
}

/** Below this rate a key is charged exactly, one script per charge. */
const LEASE_MIN_RPS = 1000;
/** A lease is at most this share of the rate (so 2 % per gateway at most is held unspent). */
const LEASE_SHARE = 50;
/** A lease is about this share of the key's own demand in one second here (≈ 50 ms of it). */
const DEMAND_SHARE = 20;
/** The cap on one lease for a key without a rate limit. */
const UNLIMITED_LEASE = 1000;
const SWEEP_MS = 1000;
const IDLE_MS = 2000;

/**
 * A {@link Limiter} shared by many gateway processes through one Redis: same semantics as
 * `createMemoryLimiter` (one contract suite runs both). Each exact charge or record is ONE Lua
 * script (registered with ioredis `defineCommand`, so it runs by EVALSHA) that rolls the
 * key's window, checks both limits and increments both counters atomically; JS never reads
 * then writes. All of a key's state is one small hash, `${prefix}${key}`, which PEXPIREs a
 * minute after the UTC day it counts ends, so Redis does not grow with idle keys. Being one
 * key per API key, it also works on Redis Cluster.
 *
 * **Credit leases** (on by default; `lease: false` turns them off): a key allowed at least
 * 1,000 credits/s (or unlimited) that is busy here takes, with an admitted charge, a few more
 * credits counted in Redis at once — about 50 ms of this process's demand for it, at most
 * 2 % of its rate, and only what both limits still admit — and spends them locally on its
 * next charges within the same second, with no round trip. Leftovers are handed back (the
 * refund rides on the key's next script call, or on a sweep within a second when the key goes
 * idle, or on `close()`), so the day's total stays exact once leases are settled, and the rate
 * is never exceeded (leased credits were admitted by the script); at most 2 % of the rate per
 * gateway can sit unspent in a lease when the key reaches its limit. Keys under 1,000
 * credits/s are always charged exactly. `usedToday` subtracts this process's own unspent
 * lease; other processes' unspent leases count until they are settled (within about 2 s).
 *
 * Time is the caller's (`now`, else `options.now`, else `Date.now`), so the gateways' clocks
 * must agree (NTP); a gateway whose clock is behind a key's newest bucket counts into that
 * bucket instead of reopening an old one. Pass a key id, not a secret, as `key`.
 *
 * `close()` settles leases but does not close `redis`: the caller owns the connection.
 *
 * @example
 * const redis = new Redis('redis://127.0.0.1:6379');
 * const limiter = createRedisLimiter(redis, { prefix: 'nodegate:limits:' });
 * const decision = await limiter.charge('key-id', 3, { creditsPerSecond: 100, creditsPerDay: 100_000 });
 */
export function createRedisLimiter(
  redis: Redis,
  options: {
    prefix: string;
    now?: () => number;
    lease?: boolean;
    /** Told the key's credits used on the UTC day `day` after each script (the degraded path's starting point). */
    observe?: (key: string, day: number, used: number) => void;
  },
): RedisLimiter {
  const observe = options.observe;
  const clock = options.now ?? Date.now;
  const prefix = options.prefix;
  const leasing = options.lease ?? true;
  redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: CHARGE_LUA });
  const r = redis as WithCharge;
  const leases = new Map<string, KeyLease>();
  let sweeper: NodeJS.Timeout | undefined;

  function leaseOf(key: string, bucket: number): KeyLease {
    let lease = leases.get(key);
    if (lease === undefined) {
      lease = {
        bucket,
        day: 0,
        left: 0,
        demandBucket: bucket,
        demandCur: 0,
        demandPrev: 0,
        leasing: false,
        touched: 0,
      };
      leases.set(key, lease);
      sweeper ??= setInterval(sweep, SWEEP_MS).unref();
    }
    return lease;
  }

  /** Hands back the leftovers of leases whose bucket has ended; forgets keys idle here. */
  function sweep(): void {
    const wall = Date.now();
    const bucket = Math.floor(clock() / 1000);
    for (const [key, lease] of leases) {
      if (lease.left > 0 && (lease.bucket < bucket || wall - lease.touched > IDLE_MS)) settle(key, lease);
      else if (lease.left === 0 && !lease.leasing && wall - lease.touched > IDLE_MS) leases.delete(key);
    }
    if (leases.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  function settle(key: string, lease: KeyLease): Promise<unknown> {
    const refund = lease.left;
    const { bucket, day } = lease;
    lease.left = 0;
    return r[COMMAND](prefix + key, Math.floor(clock()), 0, -1, -1, 0, bucket, day, refund, 0).catch((err) => {
      // never sent (Redis away): handed back later, by the sweep or the key's next script
      if (neverSent(err)) giveBack(lease, bucket, day, refund);
    });
  }

  async function exact(
    key: string,
    t: number,
    credits: number,
    perSecond: number,
    perDay: number,
    extra: number,
    lease: KeyLease | undefined,
  ): Promise<LimitDecision> {
    let refundBucket = -1;
    let refundDay = -1;
    let refund = 0;
    if (lease !== undefined && lease.left > 0) {
      refundBucket = lease.bucket;
      refundDay = lease.day;
      refund = lease.left;
      lease.left = 0;
    }
    if (lease !== undefined && extra > 0) lease.leasing = true;
    let reply: ChargeReply;
    try {
      reply = await r[COMMAND](
        prefix + key,
        t,
        credits,
        Number.isFinite(perSecond) ? perSecond : -1,
        Number.isFinite(perDay) ? perDay : -1,
        extra,
        refundBucket,
        refundDay,
        refund,
        0,
      );
    } catch (err) {
      // the refund it carried was not applied when the script was never sent: kept for later
      // (a script that timed out may have run: its refund is not repeated, the lease stays counted)
      if (lease !== undefined && refund > 0 && neverSent(err)) giveBack(lease, refundBucket, refundDay, refund);
      throw err;
    } finally {
      if (lease !== undefined && extra > 0) lease.leasing = false;
    }
    switch (reply[0]) {
      case 0:
        if (lease !== undefined && reply[5] > 0) {
          // The leased credits are counted in the bucket and day this script ran in.
          if (lease.left > 0) void settle(key, lease);
          lease.bucket = Math.floor(t / 1000);
          lease.day = Math.floor(t / DAY_MS);
          lease.left = reply[5];
        }
        // what the key has used, less this process's unspent lease (as usedToday counts it)
        observe?.(key, Math.floor(t / DAY_MS), reply[4] - reply[5]);
        return ADMITTED;
      case 1:
        observe?.(key, Math.floor(t / DAY_MS), reply[4]);
        return rateRefusal(reply[1], reply[2], reply[3], perSecond);
      default:
        observe?.(key, Math.floor(t / DAY_MS), reply[4]);
        return dailyRefusal(perDay, reply[4], t);
    }
  }

  return {
    charge(key: string, credits: number, limits: KeyLimits, now?: number): Promise<LimitDecision> {
      const invalid = checkCharge(credits, limits);
      if (invalid !== undefined) return Promise.reject(invalid);
      const t = Math.floor(now ?? clock());
      const perSecond = limits.creditsPerSecond;
      const perDay = limits.creditsPerDay;
      if (!leasing || perSecond < LEASE_MIN_RPS) return exact(key, t, credits, perSecond, perDay, 0, undefined);

      const bucket = Math.floor(t / 1000);
      const lease = leaseOf(key, bucket);
      lease.touched = Date.now();
      if (bucket !== lease.demandBucket) {
        lease.demandPrev = bucket === lease.demandBucket + 1 ? lease.demandCur : 0;
        lease.demandCur = 0;
        lease.demandBucket = bucket;
      }
      lease.demandCur += credits;
      if (lease.left >= credits && lease.bucket === bucket && lease.day === Math.floor(t / DAY_MS)) {
        lease.left -= credits;
        return ADMITTED_AT_ONCE;
      }
      let extra = 0;
      if (!lease.leasing) {
        const cap = Number.isFinite(perSecond) ? Math.floor(perSecond / LEASE_SHARE) : UNLIMITED_LEASE;
        extra = Math.min(cap, Math.floor(Math.max(lease.demandPrev, lease.demandCur) / DEMAND_SHARE));
      }
      return exact(key, t, credits, perSecond, perDay, extra, lease);
    },

    async record(key: string, credits: number, now?: number): Promise<void> {
      const invalid = checkCharge(credits, undefined);
      if (invalid !== undefined) throw invalid;
      const t = Math.floor(now ?? clock());
      const reply = await r[COMMAND](prefix + key, t, credits, -1, -1, 0, -1, -1, 0, 0);
      observe?.(key, Math.floor(t / DAY_MS), reply[4]);
    },

    async addToDay(key: string, credits: number, now?: number): Promise<void> {
      const invalid = checkCharge(credits, undefined);
      if (invalid !== undefined) throw invalid;
      const t = Math.floor(now ?? clock());
      const reply = await r[COMMAND](prefix + key, t, credits, -1, -1, 0, -1, -1, 0, 1);
      observe?.(key, Math.floor(t / DAY_MS), reply[4]);
    },

    async usedToday(key: string, now?: number): Promise<number> {
      const [day, used] = await redis.hmget(prefix + key, 'd', 'u');
      const today = Math.floor(Math.floor(now ?? clock()) / DAY_MS);
      if (day === null || used === null || Number(day) < today) return 0;
      const lease = leases.get(key);
      const unspent = lease !== undefined && lease.day === Number(day) ? lease.left : 0;
      return Number(used) - unspent;
    },

    async close(): Promise<void> {
      if (sweeper !== undefined) clearInterval(sweeper);
      sweeper = undefined;
      const settling: Promise<unknown>[] = [];
      for (const [key, lease] of leases) if (lease.left > 0) settling.push(settle(key, lease));
      leases.clear();
      await Promise.all(settling);
    },
  };
}
