import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheContract } from './cacheContract.js';
import { createRedisCache } from './createRedisCache.js';

// the real Redis on this machine, a fresh prefix per cache
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: false });
const prefixes: string[] = [];

afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
});

describe('createRedisCache', () => {
  cacheContract(async (maxBytes) => {
    const prefix = `nodegate-test-${randomUUID()}:`;
    prefixes.push(prefix);
    return createRedisCache({ redis, prefix, maxBytes });
  });

  it('keeps an answer that never changes without a TTL (a Starknet class by hash), and one that may with its TTL', async () => {
    const prefix = `nodegate-test-${randomUUID()}:`;
    prefixes.push(prefix);
    const c = createRedisCache({ redis, prefix, maxBytes: 1024 * 1024 });
    await c.set('class', '{"abi":"[]"}', { ttlMs: Number.POSITIVE_INFINITY });
    await c.set('block', '{}', { ttlMs: 3_600_000 });
    const ttls = await Promise.all((await redis.keys(`${prefix}cache:*`)).map((k) => redis.pttl(k)));
    expect(ttls).toHaveLength(2);
    // -1: no expiry; the other about an hour
    expect(Math.min(...ttls)).toBe(-1);
    expect(Math.max(...ttls)).toBeGreaterThan(3_500_000);
  });
});
