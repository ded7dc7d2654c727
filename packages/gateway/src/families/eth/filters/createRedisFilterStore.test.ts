import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { openRedis } from '../../../redis/openRedis.js';
import { createMemoryFilterStore } from './createMemoryFilterStore.js';
import { createRedisFilterStore } from './createRedisFilterStore.js';
import { createSharedFilterStore } from './createSharedFilterStore.js';
import { CONTRACT_TIMEOUT_MS, filterStoreContract } from './filterStoreContract.js';

// The Redis store against a real Redis (127.0.0.1:6379), alone and behind its memory fallback
// while Redis answers; each store under a prefix of its own, removed afterwards.
const REDIS = 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
afterAll(async () => {
  for (const c of clients) await c.quit();
});

async function redisStore() {
  const redis = await openRedis(REDIS);
  clients.push(redis);
  const prefix = `nodegate-test:${randomUUID()}:filters:`;
  const store = createRedisFilterStore(redis, { prefix, timeoutMs: CONTRACT_TIMEOUT_MS, commandTimeoutMs: 1_000 });
  const cleanup = async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  };
  return { store, cleanup };
}

filterStoreContract('redis', redisStore);
filterStoreContract('redis with its memory fallback (Redis up)', async () => {
  const { store, cleanup } = await redisStore();
  return {
    store: createSharedFilterStore({
      shared: store,
      local: createMemoryFilterStore({ timeoutMs: CONTRACT_TIMEOUT_MS }),
    }),
    cleanup,
  };
});
