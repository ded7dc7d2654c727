import type { Redis } from 'ioredis';
import type { CacheGenerations } from './CacheGenerations.js';

/**
 * Cache generations in Redis (`<prefix>cachegen:<network>`, a counter without expiry), shared
 * by every instance on the server: a bump is one `INCR`, and an instance reads the current
 * generation with each cached lookup on a dev network (sent with the lookup, one round trip).
 *
 * @example
 * const generations = createRedisGenerations({ redis, prefix: 'nodegate:' });
 */
export function createRedisGenerations(options: { redis: Redis; prefix: string }): CacheGenerations {
  const { redis, prefix } = options;
  const keyOf = (network: string) => `${prefix}cachegen:${network}`;
  return {
    current: async (network) => Number((await redis.get(keyOf(network))) ?? 0),
    async bump(network) {
      await redis.incr(keyOf(network));
    },
  };
}
