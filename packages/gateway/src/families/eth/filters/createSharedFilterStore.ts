import type { DependencyHealth } from '../../../health/createDependencyHealth.js';
import { isRedisOutage } from '../../../redis/isRedisOutage.js';
import type { createMemoryFilterStore } from './createMemoryFilterStore.js';
import type { FilterStore } from './FilterStore.js';

/**
 * The filter store of gateways that share a Redis: filters live in Redis (`shared`), so one
 * installed through one instance is read through any other. While Redis is away (its health
 * down, or a call failing with an outage: timeout, lost connection), filters are installed in
 * this instance's memory (`local`), which only this instance can read, and found there until they
 * expire, also after Redis is back; reads look in Redis first, then here. The per-key bound then
 * counts this instance's filters and, when it answers, Redis's. Logged once each way. A Redis
 * error that is not an outage (a script fault) is thrown.
 *
 * @example
 * const store = createSharedFilterStore({ shared: createRedisFilterStore(redis, …), local: createMemoryFilterStore(…), health, log });
 */
export function createSharedFilterStore(deps: {
  shared: FilterStore;
  local: ReturnType<typeof createMemoryFilterStore>;
  health?: Pick<DependencyHealth, 'up' | 'failed'> | undefined;
  log?: { warn(msg: string, fields?: Record<string, unknown>): void } | undefined;
}): FilterStore & { readonly where: 'redis' | 'memory' } {
  const { shared, local, health, log } = deps;
  let away = false;
  const wentAway = (err: unknown) => {
    health?.failed(err);
    if (away) return;
    away = true;
    log?.warn("eth filters: Redis is not answering; new filters are kept in this instance's memory", {
      error: (err as Error).message,
    });
  };
  const cameBack = () => {
    if (!away) return;
    away = false;
    log?.warn('eth filters: Redis answers again; new filters are kept in Redis');
  };
  /** Runs `call` on Redis; `undefined` when Redis is away (known down, or this call's outage). */
  const inRedis = async <T>(call: () => Promise<T>): Promise<{ value: T } | undefined> => {
    if (health !== undefined && !health.up()) {
      if (!away) wentAway(new Error('Redis is down'));
      return undefined;
    }
    try {
      const value = await call();
      cameBack();
      return { value };
    } catch (err) {
      if (!isRedisOutage(err)) throw err;
      wentAway(err);
      return undefined;
    }
  };

  return {
    get where() {
      return away ? 'memory' : 'redis';
    },
    async add(entry, maxPerOwner) {
      const here = await local.count(entry.owner, entry.polledAt);
      const added = await inRedis(() => shared.add(entry, maxPerOwner - here));
      return added !== undefined ? added.value : local.add(entry, maxPerOwner);
    },
    async get(id, now) {
      if (local.has(id)) return local.get(id, now);
      return (await inRedis(() => shared.get(id, now)))?.value;
    },
    async touch(id, owner, now) {
      if (local.has(id)) return local.touch(id, owner, now);
      return (await inRedis(() => shared.touch(id, owner, now)))?.value ?? false;
    },
    async remove(id, owner, now) {
      if (local.has(id)) return local.remove(id, owner, now);
      return (await inRedis(() => shared.remove(id, owner, now)))?.value ?? false;
    },
    async count(owner, now) {
      const here = await local.count(owner, now);
      return here + ((await inRedis(() => shared.count(owner, now)))?.value ?? 0);
    },
    async sweep(now, limit) {
      const here = await local.sweep(now, limit);
      const there = here.length < limit ? await inRedis(() => shared.sweep(now, limit - here.length)) : undefined;
      return there === undefined ? here : [...here, ...there.value];
    },
  };
}
