import type { Redis } from 'ioredis';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { Logger } from '../log/createLogger.js';
import { createDegradingLimiter, type DegradingLimiter } from './createDegradingLimiter.js';
import { createMemoryLimiter } from './createMemoryLimiter.js';
import { createRedisLimiter } from './createRedisLimiter.js';

/**
 * The limiter of instances that share a Redis: the Redis limiter (credit leases on), wrapped so
 * that it fails open to a memory limiter per instance while Redis is away
 * ({@link createDegradingLimiter}), starting each key's day from what Redis last counted for it.
 *
 * @example
 * const limiter = createSharedLimiter(redis, { prefix: 'nodegate:limits:', health: watchRedis(redis, …), log });
 * limiter.degraded(); // true while Redis is away
 */
export function createSharedLimiter(
  redis: Redis,
  options: { prefix: string; health: DependencyHealth; log?: Logger | undefined; now?: () => number },
): DegradingLimiter {
  let degrading: ReturnType<typeof createDegradingLimiter> | undefined;
  const primary = createRedisLimiter(redis, {
    prefix: options.prefix,
    ...(options.now ? { now: options.now } : {}),
    observe: (key, day, used) => degrading?.observe(key, day, used),
  });
  degrading = createDegradingLimiter({
    primary,
    fallback: () => createMemoryLimiter(options.now ? { now: options.now } : {}),
    health: options.health,
    log: options.log,
    ...(options.now ? { now: options.now } : {}),
  });
  return degrading;
}
