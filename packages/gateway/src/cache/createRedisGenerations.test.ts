import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { createRedisGenerations } from './createRedisGenerations.js';
import { generationsContract } from './generationsContract.js';

// the real Redis on this machine; each handle has a connection of its own, as two instances would
const connections: Redis[] = [];
const prefixes: string[] = [];
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

afterAll(async () => {
  const redis = new Redis(url);
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
  for (const c of connections) c.disconnect();
});

describe('createRedisGenerations', () => {
  generationsContract(async () => {
    const prefix = `nodegate-test-${randomUUID()}:`;
    prefixes.push(prefix);
    return () => {
      const redis = new Redis(url);
      connections.push(redis);
      return createRedisGenerations({ redis, prefix });
    };
  });
});
