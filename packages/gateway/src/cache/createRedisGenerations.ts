import type { Redis } from 'ioredis';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import { isRedisOutage } from '../redis/isRedisOutage.js';
import type { CacheGenerations } from './CacheGenerations.js';

/**
 * Cache generations in Redis (`<prefix>cachegen:<network>`, a counter without expiry), shared
 * by every instance on the server: a bump is one `INCR`, and an instance reads the current
 * generation with each cached lookup on a dev network (sent with the lookup, one round trip).
 *
 * **Without Redis** (`health` down, or a call failing because Redis is away): `current` rejects
 * at once, so the cache stage answers dev networks from upstream and keeps nothing; a `bump`
 * that cannot reach Redis is remembered and made when Redis is back (before then no instance
 * serves a dev network from its cache, as none can read the generation), so an entry read before
 * a write made during the outage is not served after it.
 *
 * @example
 * const generations = createRedisGenerations({ redis, prefix: 'nodegate:', health });
 */
export function createRedisGenerations(options: {
  redis: Redis;
  prefix: string;
  health?: DependencyHealth | undefined;
}): CacheGenerations {
  const { redis, prefix, health } = options;
  const keyOf = (network: string) => `${prefix}cachegen:${network}`;
  /** Networks whose bump could not reach Redis. */
  const owed = new Set<string>();
  const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
    if (health !== undefined && !health.up()) throw new Error('Redis is unavailable: cache generations cannot be read');
    try {
      return await call();
    } catch (err) {
      if (health !== undefined && isRedisOutage(err)) health.failed(err);
      throw err;
    }
  };
  const settle = async () => {
    for (const network of [...owed]) {
      await guarded(() => redis.incr(keyOf(network)));
      owed.delete(network);
    }
  };
  health?.onChange((up) => {
    if (up) settle().catch(() => undefined);
  });
  return {
    async current(network) {
      if (owed.size > 0) await settle();
      return Number((await guarded(() => redis.get(keyOf(network)))) ?? 0);
    },
    async bump(network) {
      try {
        await guarded(() => redis.incr(keyOf(network)));
      } catch (err) {
        owed.add(network);
        throw err;
      }
    },
  };
}
