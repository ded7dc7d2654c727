import type { ResponseCache } from '../cache/ResponseCache.js';
import type { CollectorSpec } from './createGatewayMetrics.js';

/**
 * The response cache's counters, read at scrape time: `nodegate_cache_hits_total`,
 * `nodegate_cache_misses_total`, `nodegate_cache_evictions_total`, and the memory store's
 * `nodegate_cache_bytes` and `nodegate_cache_entries` (the Redis store reports this instance's
 * hits and misses; its size is Redis's).
 *
 * @example
 * for (const c of cacheCollectors(cache)) metrics.addCollector(c);
 */
export function cacheCollectors(cache: ResponseCache): CollectorSpec[] {
  const one = (
    name: string,
    help: string,
    type: 'counter' | 'gauge',
    pick: (s: ReturnType<ResponseCache['stats']>) => number,
  ): CollectorSpec => ({
    name,
    help,
    type,
    labelNames: [],
    collect: () => [{ labels: {}, value: pick(cache.stats()) }],
  });
  return [
    one('nodegate_cache_hits_total', 'Calls answered from the response cache', 'counter', (s) => s.hits),
    one('nodegate_cache_misses_total', 'Cacheable calls the cache could not answer', 'counter', (s) => s.misses),
    one(
      'nodegate_cache_evictions_total',
      'Entries evicted to keep the cache within its bound',
      'counter',
      (s) => s.evictions,
    ),
    one('nodegate_cache_bytes', 'Bytes the in-process cache holds (keys, values, overhead)', 'gauge', (s) => s.bytes),
    one('nodegate_cache_entries', 'Entries the in-process cache holds', 'gauge', (s) => s.entries),
  ];
}
