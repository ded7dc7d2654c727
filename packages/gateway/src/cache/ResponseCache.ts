/** The block an entry was read from: it is served only while this block is on the canonical chain. */
export interface BlockRef {
  /** Its height, when known (a lookup by block hash alone has none). */
  readonly number?: number | undefined;
  /** Its hash, in the spelling of the network's head tracker (lower case; Starknet: no leading zeros). */
  readonly hash: string;
}

/** How long an entry lives and what it depends on. */
export interface CacheEntryOptions {
  /** Milliseconds; `Infinity` for an answer that can never change (kept until evicted). */
  readonly ttlMs: number;
  /** The block hash (or head) it depends on: dropping the tag drops the entry (a reorg, a new head). */
  readonly tag?: string | undefined;
  /** The block it was read from, checked against the head tracker before the entry is served. */
  readonly block?: BlockRef | undefined;
  /** The generation of its network's cache when it was read (dev networks; see `CacheGenerations`). */
  readonly generation?: number | undefined;
}

/** An entry as the cache gives it back. */
export interface CachedEntry {
  /** The result as the client receives it (serialised JSON). */
  readonly value: string;
  /**
   * The same result as UTF-8, when the store keeps it so (the memory store, for a value of
   * `PREPARED_MIN_LENGTH` characters or more): what an HTTP answer writes as it is. Reading
   * `value` of such an entry decodes it.
   */
  readonly bytes?: Uint8Array | undefined;
  readonly block: BlockRef | undefined;
  readonly generation: number;
}

/** What a cache reports about itself (for /metrics and the README's bound). */
export interface CacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

/**
 * A cache of JSON-RPC results as the client receives them (serialised JSON), shared by every key
 * (the key is the network, the method and the params, never the API key). Two implementations
 * share one contract suite (`cacheContract.ts`): memory and Redis, both bounded in bytes (every
 * structure they hold: entries, the tag index, the LRU order) and least recently used out first.
 */
export interface ResponseCache {
  get(key: string): Promise<CachedEntry | undefined>;
  /** `get` without a promise, for a store that answers in process (memory): the cache stage's fast path. */
  peek?(key: string): CachedEntry | undefined;
  set(key: string, value: string, options: CacheEntryOptions): Promise<void>;
  /** Drops every entry set with this tag; resolves with how many. */
  dropTag(tag: string): Promise<number>;
  /** This instance's counters (the Redis store: hits, misses and evictions of this instance only). */
  stats(): CacheStats;
  /** What the store holds now, as it counts it against its bound (the Redis store: every instance's entries). */
  size(): Promise<{ entries: number; bytes: number }>;
  close(): Promise<void>;
}
