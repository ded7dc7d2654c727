/** How long an entry lives and what it depends on. */
export interface CacheEntryOptions {
  readonly ttlMs: number;
  /** The block hash (or head) it depends on: dropping the tag drops the entry (a reorg, a new head). */
  readonly tag?: string | undefined;
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
 * share one contract suite (`cacheContract.ts`): memory (bounded in bytes, LRU) and Redis.
 */
export interface ResponseCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options: CacheEntryOptions): Promise<void>;
  /** Drops every entry set with this tag; resolves with how many. */
  dropTag(tag: string): Promise<number>;
  stats(): CacheStats;
  close(): Promise<void>;
}
