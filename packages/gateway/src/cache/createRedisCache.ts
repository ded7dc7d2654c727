import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import { isRedisOutage } from '../redis/isRedisOutage.js';
import type { CachedEntry, CacheStats, ResponseCache } from './ResponseCache.js';

/**
 * What the Redis store counts against its bound, in bytes: per entry its value as the allocator
 * holds it (its length rounded up to jemalloc's size class: a quarter of the power of two below
 * it), its key four times (the value's key, its place in the LRU sorted set, the size hash, and
 * room for each) plus `entry`, and when it has a tag its place in the tag's set (its key plus
 * `member`); per tag, its set's key plus `tag`. Checked with `MEMORY USAGE` (SAMPLES 0) over
 * every key of the store in `bench/support/cacheSoak.ts` and rounded up.
 */
export const REDIS_CACHE_COSTS = { entry: 240, member: 80, tag: 100 } as const;

const PRELUDE = `
local p = ARGV[1]
local meta, lru, total, clock = p..'cachemeta', p..'cachelru', p..'cachebytes', p..'cacheclock'
local ENTRY, MEMBER, TAG = ${REDIS_CACHE_COSTS.entry}, ${REDIS_CACHE_COSTS.member}, ${REDIS_CACHE_COSTS.tag}
local function tagKey(t) return p..'cachetag:'..t end
-- a string's bytes as jemalloc holds them: small ones by 16, larger ones by a quarter of their power of two
local function alloc(n)
  n = n + 16
  if n <= 128 then return math.ceil(n / 16) * 16 end
  local step = 2 ^ math.floor(math.log(n - 1) / math.log(2)) / 4
  return math.ceil(n / step) * step
end
local function tagCost(t) return string.len(tagKey(t)) + TAG end
-- removes an entry and everything counted for it; 1 when its value was still there
local function forget(m)
  local info = redis.call('HGET', meta, m)
  if not info then return redis.call('DEL', m) end
  local sep = string.find(info, '|', 1, true)
  local size, t = tonumber(string.sub(info, 1, sep - 1)), string.sub(info, sep + 1)
  redis.call('HDEL', meta, m)
  redis.call('ZREM', lru, m)
  local gone = redis.call('DEL', m)
  redis.call('DECRBY', total, size)
  if t ~= '' then
    local tk = tagKey(t)
    redis.call('SREM', tk, m)
    if redis.call('SCARD', tk) == 0 then redis.call('DECRBY', total, tagCost(t)) end
  end
  return gone
end
`;

// ARGV: prefix, entry key, value, ttl ms (0: none), tag ('' none), max bytes -> entries evicted, -1 too large
const SET_LUA = `${PRELUDE}
local k, v, ttl, tag, max = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
forget(k)
local cost = alloc(string.len(v)) + 4 * string.len(k) + ENTRY
if tag ~= '' then cost = cost + string.len(k) + MEMBER end
local newTag = tag ~= '' and redis.call('EXISTS', tagKey(tag)) == 0
local need = cost
if newTag then need = need + tagCost(tag) end
if need > max then return -1 end
if ttl > 0 then redis.call('SET', k, v, 'PX', ttl) else redis.call('SET', k, v) end
redis.call('HSET', meta, k, cost..'|'..tag)
redis.call('ZADD', lru, redis.call('INCR', clock), k)
local bytes = redis.call('INCRBY', total, need)
if tag ~= '' then redis.call('SADD', tagKey(tag), k) end
local evicted = 0
while bytes > max do
  local oldest = redis.call('ZRANGE', lru, 0, 0)[1]
  if not oldest or oldest == k then break end
  forget(oldest)
  evicted = evicted + 1
  bytes = tonumber(redis.call('GET', total))
end
return evicted
`;

// ARGV: prefix, entry key -> the value or false; a hit becomes the most recently used
const GET_LUA = `${PRELUDE}
local k = ARGV[2]
local v = redis.call('GET', k)
if v then
  redis.call('ZADD', lru, 'XX', redis.call('INCR', clock), k)
  return v
end
-- expired: what was counted for it goes too
if redis.call('HEXISTS', meta, k) == 1 then forget(k) end
return false
`;

// ARGV: prefix, tag -> entries dropped
const DROP_LUA = `${PRELUDE}
local n = 0
for _, m in ipairs(redis.call('SMEMBERS', tagKey(ARGV[2]))) do n = n + forget(m) end
return n
`;

interface CacheCommands {
  nodegateCacheSet(...args: string[]): Promise<number>;
  nodegateCacheGet(...args: string[]): Promise<string | null>;
  nodegateCacheDrop(...args: string[]): Promise<number>;
}

/** `generation|number|hash|value`: the entry's metadata rides in front of its value. */
const encode = (value: string, generation: number, number: number | undefined, hash: string | undefined) =>
  `${generation}|${number ?? ''}|${hash ?? ''}|${value}`;

function decode(text: string): CachedEntry | undefined {
  const a = text.indexOf('|');
  const b = text.indexOf('|', a + 1);
  const c = text.indexOf('|', b + 1);
  if (a < 0 || b < 0 || c < 0) return undefined;
  const number = b > a + 1 ? Number(text.slice(a + 1, b)) : undefined;
  const hash = c > b + 1 ? text.slice(b + 1, c) : undefined;
  return {
    value: text.slice(c + 1),
    generation: Number(text.slice(0, a)),
    block: hash === undefined ? undefined : { number, hash },
  };
}

/**
 * The cache shared by every gateway instance, in Redis, bounded by our own accounting (not the
 * server's `maxmemory`, which would also evict the limiter's keys sharing the server): each entry
 * is a string key (`<prefix>cache:<sha1 of the cache key>`, with its TTL when it has one), its
 * place in an LRU sorted set (`<prefix>cachelru`, ordered by a shared clock) and its counted size
 * in a hash (`<prefix>cachemeta`); a tag is a set of the entry keys that depend on it
 * (`<prefix>cachetag:<tag>`). `<prefix>cachebytes` is the total of everything counted (see
 * {@link REDIS_CACHE_COSTS}); a set that takes it above `maxBytes` evicts the least recently
 * used entries first, in the same Lua script, so the bound holds across instances. An entry
 * that expired is uncounted when it is next read or evicted. `stats()` counts this instance's
 * hits, misses and evictions.
 *
 * **Without Redis** (`health` down: a command timed out or the connection closed), every call
 * rejects at once without sending anything, and the cache stage answers from upstream without
 * keeping the answer (a miss); a call that fails because Redis is away takes `health` down.
 * Commands are bounded by the connection's timeout (`openRedis`).
 *
 * @example
 * const cache = createRedisCache({ redis, prefix: 'nodegate:', maxBytes: 64 * 1024 * 1024, health });
 */
export function createRedisCache(options: {
  redis: Redis;
  prefix: string;
  maxBytes: number;
  health?: DependencyHealth | undefined;
}): ResponseCache {
  const { redis, prefix, maxBytes, health } = options;
  /** Runs a Redis call unless Redis is known to be away; a failure because it is away is reported. */
  const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
    if (health !== undefined && !health.up()) throw new Error('Redis is unavailable: the response cache is bypassed');
    try {
      return await call();
    } catch (err) {
      if (health !== undefined && isRedisOutage(err)) health.failed(err);
      throw err;
    }
  };
  const r = redis as Redis & CacheCommands;
  if (typeof r.nodegateCacheSet !== 'function') {
    redis.defineCommand('nodegateCacheSet', { numberOfKeys: 0, lua: SET_LUA });
    redis.defineCommand('nodegateCacheGet', { numberOfKeys: 0, lua: GET_LUA });
    redis.defineCommand('nodegateCacheDrop', { numberOfKeys: 0, lua: DROP_LUA });
  }
  const entryKey = (key: string) => `${prefix}cache:${createHash('sha1').update(key).digest('base64url')}`;
  let hits = 0;
  let misses = 0;
  let evictions = 0;
  return {
    async get(key) {
      const text = await guarded(() => r.nodegateCacheGet(prefix, entryKey(key)));
      const entry = text === null ? undefined : decode(text);
      if (entry === undefined) misses += 1;
      else hits += 1;
      return entry;
    },
    async set(key, value, opts) {
      const ttl = opts.ttlMs === Number.POSITIVE_INFINITY ? 0 : Math.max(1, Math.round(opts.ttlMs));
      const text = encode(value, opts.generation ?? 0, opts.block?.number, opts.block?.hash);
      const evicted = await guarded(() =>
        r.nodegateCacheSet(prefix, entryKey(key), text, String(ttl), opts.tag ?? '', String(maxBytes)),
      );
      if (evicted > 0) evictions += evicted;
    },
    async dropTag(tag) {
      return guarded(() => r.nodegateCacheDrop(prefix, tag));
    },
    stats: (): CacheStats => ({ entries: 0, bytes: 0, hits, misses, evictions }),
    async size() {
      const [bytes, entries] = await guarded(() =>
        Promise.all([redis.get(`${prefix}cachebytes`), redis.zcard(`${prefix}cachelru`)]),
      );
      return { entries, bytes: Number(bytes ?? 0) };
    },
    async close() {},
  };
}
