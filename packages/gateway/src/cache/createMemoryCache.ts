import type { BlockRef, CachedEntry, CacheEntryOptions, CacheStats, ResponseCache } from './ResponseCache.js';

/**
 * What the cache counts against its bound, in bytes, besides its strings (each counted as V8
 * stores it: a 16-byte header and one byte a character when every character fits in Latin-1,
 * two otherwise, rounded up to 8). The fixed parts were checked with `bench/support/cacheSoak.ts`
 * (the heap after a full GC, and the array buffers, against this count) and rounded up.
 */
export const MEMORY_CACHE_COSTS = {
  /** An entry: its Map slot, the entry object and its block reference. */
  entry: 320,
  /** A tag: its Map slot and its Set. */
  tag: 200,
  /** One entry's membership in its tag's Set. */
  member: 64,
  /**
   * A value kept as UTF-8 bytes, besides the bytes themselves: its typed array and array buffer
   * objects, the buffer's backing store and the allocator's share (measured as the process's
   * resident memory per 200,000 buffers of 100 B to 20 KB: 650 to 860 bytes).
   */
  bytes: 896,
} as const;

/**
 * Values of this many characters or more are kept as UTF-8 bytes, ready to write (a block, a
 * receipt, a page of logs); shorter ones (a quantity, a hash) as strings, which cost less than a
 * buffer's fixed share and are quick to encode.
 */
export const PREPARED_MIN_LENGTH = 512;

const WIDE = /[^\u0000-\u00ff]/;
const strBytes = (s: string) => 16 + (((WIDE.test(s) ? 2 * s.length : s.length) + 7) & ~7);
const tagBytes = (tag: string) => strBytes(tag) + MEMORY_CACHE_COSTS.tag;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** One entry: its value as a string, or as UTF-8 bytes (then `value` decodes them). */
class Entry implements CachedEntry {
  constructor(
    private readonly text: string | undefined,
    readonly bytes: Uint8Array | undefined,
    readonly block: BlockRef | undefined,
    readonly generation: number,
    /** What it counts against the bound. */
    readonly cost: number,
    readonly expires: number,
    readonly tag: string | undefined,
    /** The insertion count when it last became the most recently used. */
    public touched: number,
  ) {}

  get value(): string {
    return this.text ?? decoder.decode(this.bytes);
  }
}

/**
 * The in-process cache: at most `maxBytes` in all (keys and values as the engine stores them, a
 * fixed overhead per entry, and the tag index: each tag and each entry's place in it), least
 * recently used out first; entries expire after their TTL (`Infinity`: never); a tag index drops
 * every entry of a replaced block at once. Every operation is O(1) but `dropTag` (O(entries of
 * the tag)). `get` (and `peek`, the same without a promise) hands back the stored entry itself
 * (no copy). A read moves an entry to the most recent end unless it was moved there within the
 * last quarter of the cache's turnover (the newest quarter is not reordered: a hot entry costs no
 * map writes on most reads, and is never near the eviction end). A value of
 * {@link PREPARED_MIN_LENGTH} characters or more is kept as UTF-8 bytes (`entry.bytes`, encoded
 * once when it is set), so an HTTP hit writes it without encoding it again.
 *
 * @example
 * const cache = createMemoryCache({ maxBytes: 64 * 1024 * 1024 });
 * await cache.set('mainnet|eth_chainId|[]', '"0x1"', { ttlMs: Infinity });
 */
export function createMemoryCache(options: {
  maxBytes: number;
  now?: () => number;
}): ResponseCache & { peek(key: string): CachedEntry | undefined } {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const tags = new Map<string, Set<string>>();
  /** Entries made or moved to the most recent end so far. */
  let clock = 0;
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let evictions = 0;

  const untag = (key: string, tag: string) => {
    const set = tags.get(tag);
    if (set === undefined) return;
    set.delete(key);
    if (set.size === 0) {
      tags.delete(tag);
      bytes -= tagBytes(tag);
    }
  };
  const remove = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.cost;
    if (entry.tag !== undefined) untag(key, entry.tag);
  };
  const peek = (key: string): CachedEntry | undefined => {
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
    // most recently used last (unless it is among the newest quarter already)
    if (clock - entry.touched > entries.size >>> 2) {
      entries.delete(key);
      entries.set(key, entry);
      entry.touched = ++clock;
    }
    hits += 1;
    return entry;
  };

  return {
    peek,
    async get(key) {
      return peek(key);
    },
    async set(key, value, opts: CacheEntryOptions) {
      const tag = opts.tag;
      const prepared = value.length >= PREPARED_MIN_LENGTH ? encoder.encode(value) : undefined;
      const size =
        strBytes(key) +
        (prepared === undefined ? strBytes(value) : prepared.byteLength + MEMORY_CACHE_COSTS.bytes) +
        MEMORY_CACHE_COSTS.entry +
        (opts.block === undefined ? 0 : strBytes(opts.block.hash)) +
        (tag === undefined ? 0 : MEMORY_CACHE_COSTS.member);
      const old = entries.get(key);
      if (old !== undefined) remove(key, old);
      const needed = size + (tag !== undefined && !tags.has(tag) ? tagBytes(tag) : 0);
      if (needed > options.maxBytes) return;
      const entry = new Entry(
        prepared === undefined ? value : undefined,
        prepared,
        opts.block,
        opts.generation ?? 0,
        size,
        opts.ttlMs === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : now() + opts.ttlMs,
        tag,
        ++clock,
      );
      entries.set(key, entry);
      bytes += size;
      if (tag !== undefined) {
        let set = tags.get(tag);
        if (!set) {
          set = new Set();
          tags.set(tag, set);
          bytes += tagBytes(tag);
        }
        set.add(key);
      }
      // least recently used out (within this call: nobody sees the cache above its bound); the new
      // entry is the most recent and fits alone, so it stays
      while (bytes > options.maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done || oldest.value === key) break;
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
      // removing its last entry removed the tag (and its bytes)
      return n;
    },
    stats: (): CacheStats => ({ entries: entries.size, bytes, hits, misses, evictions }),
    async size() {
      return { entries: entries.size, bytes };
    },
    async close() {
      entries.clear();
      tags.clear();
      bytes = 0;
    },
  };
}
