import type { CacheEntryOptions, CacheStats, ResponseCache } from './ResponseCache.js';

interface Entry {
  readonly value: string;
  readonly bytes: number;
  readonly expires: number;
  readonly tag: string | undefined;
}

/** Bytes an entry holds: its key and value as UTF-16 strings, plus the map and index slots. */
const sizeOf = (key: string, value: string) => (key.length + value.length) * 2 + 96;

/**
 * The in-process cache: at most `maxBytes` (key and value as the engine stores them, plus a fixed
 * overhead per entry), least recently used out first; entries expire after their TTL; a tag index
 * drops every entry of a replaced block at once. Every operation is O(1) but `dropTag` (O(entries
 * of the tag)).
 *
 * @example
 * const cache = createMemoryCache({ maxBytes: 64 * 1024 * 1024 });
 * await cache.set('mainnet|eth_chainId|[]', '"0x1"', { ttlMs: 3_600_000 });
 */
export function createMemoryCache(options: { maxBytes: number; now?: () => number }): ResponseCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const tags = new Map<string, Set<string>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let evictions = 0;

  const remove = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.bytes;
    if (entry.tag !== undefined) {
      const set = tags.get(entry.tag);
      set?.delete(key);
      if (set?.size === 0) tags.delete(entry.tag);
    }
  };

  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry === undefined) {
        misses += 1;
        return undefined;
      }
      if (entry.expires <= now()) {
        remove(key, entry);
        misses += 1;
        return undefined;
      }
      // most recently used last
      entries.delete(key);
      entries.set(key, entry);
      hits += 1;
      return entry.value;
    },
    async set(key, value, opts: CacheEntryOptions) {
      const size = sizeOf(key, value);
      if (size > options.maxBytes) return;
      const old = entries.get(key);
      if (old !== undefined) remove(key, old);
      const entry: Entry = { value, bytes: size, expires: now() + opts.ttlMs, tag: opts.tag };
      entries.set(key, entry);
      bytes += size;
      if (opts.tag !== undefined) {
        let set = tags.get(opts.tag);
        if (!set) {
          set = new Set();
          tags.set(opts.tag, set);
        }
        set.add(key);
      }
      while (bytes > options.maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        remove(oldest.value, entries.get(oldest.value)!);
        evictions += 1;
      }
    },
    async dropTag(tag) {
      const set = tags.get(tag);
      if (!set) return 0;
      let n = 0;
      for (const key of [...set]) {
        const entry = entries.get(key);
        if (entry) {
          remove(key, entry);
          n += 1;
        }
      }
      tags.delete(tag);
      return n;
    },
    stats: (): CacheStats => ({ entries: entries.size, bytes, hits, misses, evictions }),
    async close() {
      entries.clear();
      tags.clear();
      bytes = 0;
    },
  };
}
