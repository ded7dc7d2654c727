import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheStats, ResponseCache } from './ResponseCache.js';

/**
 * The cache shared by every gateway instance, in Redis: each entry is a string key
 * (`<prefix>cache:<sha1 of the cache key>`) with its TTL (`PX`), so Redis forgets it on its
 * own; a tag is a set of the entry keys that depend on it (`<prefix>cachetag:<tag>`, with the
 * longest TTL of its entries), and dropping it deletes them. The bound is the TTLs (every entry
 * has one; `maxTtlMs` caps them) plus the Redis server's own `maxmemory` policy; `stats()` counts
 * this instance's hits and misses.
 *
 * @example
 * const cache = createRedisCache({ redis, prefix: 'nodegate:' });
 */
export function createRedisCache(options: { redis: Redis; prefix: string; maxTtlMs?: number }): ResponseCache {
  const { redis, prefix } = options;
  const maxTtl = options.maxTtlMs ?? 24 * 3_600_000;
  const entryKey = (key: string) => `${prefix}cache:${createHash('sha1').update(key).digest('base64url')}`;
  const tagKey = (tag: string) => `${prefix}cachetag:${tag}`;
  let hits = 0;
  let misses = 0;
  return {
    async get(key) {
      const value = await redis.get(entryKey(key));
      if (value === null) {
        misses += 1;
        return undefined;
      }
      hits += 1;
      return value;
    },
    async set(key, value, opts) {
      const ttl = Math.max(1, Math.min(opts.ttlMs, maxTtl));
      const k = entryKey(key);
      const multi = redis.multi().set(k, value, 'PX', ttl);
      if (opts.tag !== undefined) {
        const t = tagKey(opts.tag);
        multi.sadd(t, k).pexpire(t, ttl, 'GT').pexpire(t, ttl, 'NX');
      }
      await multi.exec();
    },
    async dropTag(tag) {
      const t = tagKey(tag);
      const members = await redis.smembers(t);
      if (members.length === 0) return 0;
      const removed = await redis.del(...members);
      await redis.del(t);
      return removed;
    },
    stats: (): CacheStats => ({ entries: 0, bytes: 0, hits, misses, evictions: 0 }),
    async close() {},
  };
}
