import type { Redis } from 'ioredis';
import type { DependencyHealth } from '../../../health/createDependencyHealth.js';
import type { Logger } from '../../../log/createLogger.js';
import type { Network } from '../../../network/createNetwork.js';
import { createEthFilters, type EthFilters } from './createEthFilters.js';
import { createMemoryFilterStore } from './createMemoryFilterStore.js';
import { createRedisFilterStore } from './createRedisFilterStore.js';
import { createSharedFilterStore } from './createSharedFilterStore.js';

/**
 * The gateway's eth filter registry as the config asks for it: kept in Redis (`<prefix>filters:`,
 * shared by every instance, in this instance's memory while Redis is away) when Redis is
 * configured, else in memory. Call `close()` on shutdown.
 *
 * @example
 * const filters = openEthFilters({ maxPerKey: 100, timeoutMs: 300_000, networks, log, redis: { client, prefix: 'nodegate:', commandTimeoutMs: 1000, health } });
 */
export function openEthFilters(options: {
  readonly maxPerKey: number;
  readonly timeoutMs: number;
  readonly networks: readonly Network[];
  readonly log: Logger;
  readonly redis?:
    | {
        readonly client: Redis;
        readonly prefix: string;
        readonly commandTimeoutMs: number;
        readonly health?: DependencyHealth | undefined;
      }
    | undefined;
}): EthFilters {
  const { maxPerKey, timeoutMs, networks, log, redis } = options;
  const local = createMemoryFilterStore({ timeoutMs });
  const store =
    redis === undefined
      ? local
      : createSharedFilterStore({
          shared: createRedisFilterStore(redis.client, {
            prefix: `${redis.prefix}filters:`,
            timeoutMs,
            commandTimeoutMs: redis.commandTimeoutMs,
          }),
          local,
          health: redis.health,
          log,
        });
  return createEthFilters({ store, networks, maxPerKey, timeoutMs, log });
}
