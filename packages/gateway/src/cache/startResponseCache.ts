import type { Redis } from 'ioredis';
import type { CacheSettings } from '../config/types.js';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { Network } from '../network/createNetwork.js';
import { type CacheStage, createCacheStage } from '../pipeline/stages/createCacheStage.js';
import type { CacheGenerations } from './CacheGenerations.js';
import { createHeadTap, type HeadTap } from './createHeadTap.js';
import { createHeadTracker, type HeadTracker } from './createHeadTracker.js';
import { createMemoryCache } from './createMemoryCache.js';
import { createMemoryGenerations } from './createMemoryGenerations.js';
import { createRedisCache } from './createRedisCache.js';
import { createRedisGenerations } from './createRedisGenerations.js';
import type { ResponseCache } from './ResponseCache.js';
import { starknetBlockReader } from './starknetBlockReader.js';

/** The response cache as the composition root wires it. */
export interface StartedResponseCache {
  readonly stage: CacheStage;
  readonly store: ResponseCache;
  /** Give it to the WebSocket subscriptions (`createSubscriptions({ heads })`): the trackers hear the upstream's heads. */
  readonly headTap: HeadTap;
  close(): Promise<void>;
}

/**
 * Builds the response cache from its settings: the store (memory, or Redis when
 * `settings.kind` is `redis`; both bounded by `maxBytes`), the dev networks' generations (in
 * Redis whenever Redis is configured, so instances agree even with memory stores), and a head
 * tracker per Ethereum and Starknet network, polled every `headPollMs` and told of each head the
 * WebSocket hub's upstream newHeads subscription brings (`headTap`). Reorged blocks' entries and
 * the previous head's are dropped as the tracker hears of them.
 *
 * @example
 * const cache = startResponseCache(config.cache, networks, redis, 'nodegate:');
 * createRequestPath({ …, cache: cache.stage });
 * createSubscriptions({ log, heads: cache.headTap });
 */
export function startResponseCache(
  settings: CacheSettings,
  networks: readonly Network[],
  redis: Redis | undefined,
  prefix: string,
  /** Redis's health (`watchRedis`): while it is down the Redis store and generations are bypassed (answers come from upstream). */
  redisHealth?: DependencyHealth,
): StartedResponseCache {
  const store: ResponseCache =
    settings.kind === 'redis' && redis
      ? createRedisCache({ redis, prefix, maxBytes: settings.maxBytes, health: redisHealth })
      : createMemoryCache({ maxBytes: settings.maxBytes });
  const generations: CacheGenerations = redis
    ? createRedisGenerations({ redis, prefix, health: redisHealth })
    : createMemoryGenerations();
  const heads = new Map<string, HeadTracker>();
  const headTap = createHeadTap();
  for (const n of networks) {
    const family = n.settings.family;
    if (family !== 'eth' && family !== 'starknet') continue;
    heads.set(
      n.settings.name,
      createHeadTracker(n, {
        ...(family === 'starknet' ? { read: starknetBlockReader(n) } : {}),
        watch: headTap.watch(n.settings.name, family),
        intervalMs: settings.headPollMs,
        onReorg: (gone) => {
          for (const hash of gone) void store.dropTag(`blk:${hash.toLowerCase()}`).catch(() => undefined);
        },
        onHead: (_head, previous) => {
          if (previous) void store.dropTag(`head:${previous.hash}`).catch(() => undefined);
        },
      }),
    );
  }
  return {
    stage: createCacheStage(store, heads, generations),
    store,
    headTap,
    async close() {
      for (const t of heads.values()) t.close();
      await store.close();
    },
  };
}
