import type { Redis } from 'ioredis';
import { checkCharge } from './checkCharge.js';
import { dailyRefusal } from './dailyRefusal.js';
import type { KeyLimits, LimitDecision, Limiter } from './Limiter.js';
import { rateRefusal } from './rateRefusal.js';

const DAY_MS = 86_400_000;

/**
 * The one atomic step of a charge. KEYS[1]: the key's hash. ARGV: now (epoch ms, integer),
 * credits, credits per second, credits per day (-1: no limit; both -1 = record).
 * Hash fields: b = current 1-second bucket, c = its credits, p = previous bucket's credits,
 * d = UTC day, u = credits used that day. Returns {code, p, c, ms into bucket, u}, code
 * 0 = admitted (counters already incremented), 1 = rate refused, 2 = daily refused.
 * Same arithmetic as the memory limiter, in doubles, so both decide identically.
 */
const CHARGE_LUA = `
local now = tonumber(ARGV[1])
local credits = tonumber(ARGV[2])
local rps = tonumber(ARGV[3])
local perDay = tonumber(ARGV[4])
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
if perDay >= 0 and u + credits > perDay then
  return {2, p, c, ms, u}
end
if rps >= 0 and p * (1000 - ms) + c * 1000 >= rps * 1000 then
  return {1, p, c, ms, u}
end
c = c + credits
u = u + credits
redis.call('HSET', KEYS[1], 'b', b, 'c', c, 'p', p, 'd', d, 'u', u)
redis.call('PEXPIRE', KEYS[1], (d + 1) * 86400000 - now + 60000)
return {0, p, c, ms, u}
`;

const COMMAND = 'nodegateLimiterCharge';

type ChargeReply = [code: number, prev: number, cur: number, msInto: number, used: number];
type WithCharge = Redis & {
  [COMMAND](key: string, now: number, credits: number, perSecond: number, perDay: number): Promise<ChargeReply>;
};

const ADMITTED: LimitDecision = Object.freeze({ ok: true });

/**
 * A {@link Limiter} shared by many gateway processes through one Redis: same semantics as
 * `createMemoryLimiter` (one contract suite runs both). Each charge or record is ONE Lua
 * script (registered with ioredis `defineCommand`, so it runs by EVALSHA) that rolls the
 * key's window, checks both limits and increments both counters atomically; JS never reads
 * then writes. All of a key's state is one small hash, `${prefix}${key}`, which PEXPIREs a
 * minute after the UTC day it counts ends, so Redis does not grow with idle keys. Being one
 * key per API key, it also works on Redis Cluster.
 *
 * Time is the caller's (`now`, else `options.now`, else `Date.now`), so the gateways' clocks
 * must agree (NTP); a gateway whose clock is behind a key's newest bucket counts into that
 * bucket instead of reopening an old one. Pass a key id, not a secret, as `key`.
 *
 * `close()` does not close `redis`: the caller owns the connection.
 *
 * @example
 * const redis = new Redis('redis://127.0.0.1:6379');
 * const limiter = createRedisLimiter(redis, { prefix: 'nodegate:limits:' });
 * const decision = await limiter.charge('key-id', 3, { creditsPerSecond: 100, creditsPerDay: 100_000 });
 */
export function createRedisLimiter(redis: Redis, options: { prefix: string; now?: () => number }): Limiter {
  const clock = options.now ?? Date.now;
  const prefix = options.prefix;
  redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: CHARGE_LUA });
  const r = redis as WithCharge;

  return {
    async charge(key: string, credits: number, limits: KeyLimits, now?: number): Promise<LimitDecision> {
      const invalid = checkCharge(credits, limits);
      if (invalid !== undefined) throw invalid;
      const t = Math.floor(now ?? clock());
      const perSecond = limits.creditsPerSecond;
      const perDay = limits.creditsPerDay;
      const reply = await r[COMMAND](
        prefix + key,
        t,
        credits,
        Number.isFinite(perSecond) ? perSecond : -1,
        Number.isFinite(perDay) ? perDay : -1,
      );
      switch (reply[0]) {
        case 0:
          return ADMITTED;
        case 1:
          return rateRefusal(reply[1], reply[2], reply[3], perSecond);
        default:
          return dailyRefusal(perDay, reply[4], t);
      }
    },

    async record(key: string, credits: number, now?: number): Promise<void> {
      const invalid = checkCharge(credits, undefined);
      if (invalid !== undefined) throw invalid;
      await r[COMMAND](prefix + key, Math.floor(now ?? clock()), credits, -1, -1);
    },

    async usedToday(key: string, now?: number): Promise<number> {
      const [day, used] = await redis.hmget(prefix + key, 'd', 'u');
      const today = Math.floor(Math.floor(now ?? clock()) / DAY_MS);
      return day !== null && used !== null && Number(day) >= today ? Number(used) : 0;
    },

    async close(): Promise<void> {},
  };
}
