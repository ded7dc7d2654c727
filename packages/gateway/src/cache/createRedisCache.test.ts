import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { cacheContract } from './cacheContract.js';
import { createRedisCache } from './createRedisCache.js';

// the real Redis on this machine, a fresh prefix per run
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: false });
const prefix = `nodegate-test-${randomUUID()}:`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('createRedisCache', () => {
  cacheContract(async () => createRedisCache({ redis, prefix }));
});
