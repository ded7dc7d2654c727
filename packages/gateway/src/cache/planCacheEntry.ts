import { ethBlockParam } from '../families/eth/ethBlockParam.js';
import type { MethodTraits } from '../families/types.js';
import type { HeadTracker } from './createHeadTracker.js';
import { ethCacheKey } from './ethCacheKey.js';
import type { CacheEntryOptions } from './ResponseCache.js';

/**
 * How long entries live: answers that can never change (a Starknet class by its hash) until the
 * LRU evicts them, final ones an hour, ones that a reorg could still replace ten minutes, head
 * ones two seconds.
 */
export const TTL = { forever: Number.POSITIVE_INFINITY, final: 3_600_000, unfinal: 600_000, head: 2_000 } as const;

/** Whether and how one call may be answered from the cache. */
export interface CachePlan {
  /** The cache key (network, method, params; never the API key). */
  readonly key: string;
  /** Decides, from the result, whether and how to keep it (undefined: do not keep). */
  readonly keep: (result: unknown) => CacheEntryOptions | undefined;
}

const isHexNumber = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(v);
const isHash = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v);
const tagOf = (hash: string) => `blk:${hash.toLowerCase()}`;
/** Kept under its block's hash: dropped when a reorg replaces it, and served only while it is canonical. */
const underBlock = (ttlMs: number, hash: string, number?: number): CacheEntryOptions => ({
  ttlMs,
  tag: tagOf(hash),
  block: number === undefined ? { hash: hash.toLowerCase() } : { number, hash: hash.toLowerCase() },
});

/**
 * Decides for an Ethereum call whether the cache may answer it, from its method table row
 * (`cache`): `immutable` lookups by hash are kept once their block is final (an hour), or tagged
 * with their block's hash until then (a reorg drops them); `by-block` calls are kept when they
 * name a block at or below `finalized` (by number, `earliest`, or EIP-1898 `{blockNumber}`), or a
 * recent block by its hash (tagged); `head` calls only on production networks, tagged with the
 * current head (the next head drops them). Calls with `latest`, `pending` or `safe`, null results
 * and errors are never kept. Every entry that depends on a block carries it (`block`), so the
 * cache stage serves it only while the head tracker holds that block canonical. On dev networks
 * even "final" blocks can be reverted: there a final entry carries its block too when the
 * tracker knows it (and the cache stage keeps entries per generation, bumped by every write).
 */
export function planCacheEntry(
  network: string,
  method: string,
  params: unknown,
  traits: MethodTraits,
  heads: HeadTracker | undefined,
  dev: boolean,
): CachePlan | undefined {
  const key = ethCacheKey(network, method, params, traits, heads, dev);
  if (key === undefined || heads === undefined) return undefined;
  const list = Array.isArray(params) ? params : [];
  const finalized = heads.finalized();
  /** A final block: for good, but on a dev network still under its block when the tracker knows it. */
  const final = (n: number, hash?: string): CacheEntryOptions => {
    const known = hash ?? heads.hashAt(n);
    return dev && known !== undefined ? underBlock(TTL.final, known, n) : { ttlMs: TTL.final };
  };
  const byNumber = (n: number): CacheEntryOptions | undefined => {
    if (finalized !== undefined && n <= finalized) return final(n);
    const hash = heads.hashAt(n);
    const latest = heads.latest();
    return hash !== undefined && latest !== undefined && n <= latest.number
      ? underBlock(TTL.unfinal, hash, n)
      : undefined;
  };
  switch (traits.cache) {
    case 'immutable': {
      if (list.length === 0) return { key, keep: () => ({ ttlMs: TTL.final }) };
      return {
        key,
        keep: (result) => {
          if (result === null || typeof result !== 'object') {
            // a count or a value by block hash: tied to that block
            return result !== null && isHash(list[0]) ? underBlock(TTL.unfinal, list[0]) : undefined;
          }
          const r = result as Record<string, unknown>;
          const number = r.blockNumber ?? r.number;
          const hash = r.blockHash ?? r.hash;
          if (!isHexNumber(number)) return undefined; // pending: not in a block yet
          const n = Number.parseInt(number, 16);
          if (finalized !== undefined && n <= finalized) return final(n, isHash(hash) ? hash.toLowerCase() : undefined);
          return isHash(hash) ? underBlock(TTL.unfinal, hash, n) : undefined;
        },
      };
    }
    case 'by-block': {
      const where = ethBlockParam(method);
      if (where === undefined || where.filter) return undefined;
      const b = list[where.at];
      let decided: CacheEntryOptions | undefined;
      if (b === 'earliest') decided = { ttlMs: TTL.final };
      else if (isHexNumber(b)) decided = byNumber(Number.parseInt(b, 16));
      else if (typeof b === 'object' && b !== null) {
        const o = b as Record<string, unknown>;
        if (isHash(o.blockHash)) decided = underBlock(TTL.unfinal, o.blockHash);
        else if (isHexNumber(o.blockNumber)) decided = byNumber(Number.parseInt(o.blockNumber, 16));
      }
      if (decided === undefined) return undefined;
      const options = decided;
      return {
        key,
        keep: (result) => {
          if (result === null) return undefined;
          // a block read by number must be the one the tag names (the node may already be past a
          // reorg the tracker has not seen yet)
          const hash = (result as { hash?: unknown }).hash;
          if (
            options.tag !== undefined &&
            method === 'eth_getBlockByNumber' &&
            isHash(hash) &&
            tagOf(hash) !== options.tag
          )
            return undefined;
          return options;
        },
      };
    }
    case 'head': {
      // the key names the head it is answered at (`ethCacheKey`)
      const head = heads.latest()!;
      return {
        key,
        keep: (result) =>
          result === null ? undefined : { ttlMs: TTL.head, tag: `head:${head.hash}`, block: { ...head } },
      };
    }
    default:
      return undefined;
  }
}
