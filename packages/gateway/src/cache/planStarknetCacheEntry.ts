import type { MethodTraits } from '../families/types.js';
import type { HeadTracker } from './createHeadTracker.js';
import type { CachePlan } from './planCacheEntry.js';
import { TTL } from './planCacheEntry.js';
import type { CacheEntryOptions } from './ResponseCache.js';
import { starknetHashTag } from './starknetHashTag.js';
import { starknetCacheKey } from './starknetCacheKey.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const FINAL = { ttlMs: TTL.final } as const;
const FOREVER = { ttlMs: TTL.forever } as const;
const blockTag = (hash: string) => `blk:${starknetHashTag(hash)}`;
/** Kept under its block's hash: dropped when a reorg replaces it, and served only while it is canonical. */
const underBlock = (hash: string, number?: number): CacheEntryOptions => ({
  ttlMs: TTL.unfinal,
  tag: blockTag(hash),
  block: number === undefined ? { hash: starknetHashTag(hash) } : { number, hash: starknetHashTag(hash) },
});

/**
 * Decides for a Starknet call whether the cache may answer it. Answers that say themselves they
 * cannot change are kept: classes by class hash (`getClass`, `getCompiledCasm`: a class hash
 * names its content, so they are kept forever, until the LRU evicts them; an undeclared class is
 * an error, never kept), `chainId` (an hour; not `specVersion`: the
 * upstreams of one network may run different versions), and
 * receipts and blocks whose status is `ACCEPTED_ON_L1` (final on L1; the dev chain never reaches
 * it, so there they are not kept). Anything pending, `PRE_CONFIRMED`, `ACCEPTED_ON_L2`, null or
 * an error is never kept. With the network's head tracker (`starknetBlockReader`):
 * calls that name a block by number (`block_id: { block_number }`) are kept for good at or below
 * the newest L1-accepted height, and until a reorg replaces it (tagged with its hash) for a recent
 * block the tracker knows; calls naming a block by hash are tagged with that hash; `head` calls
 * (`blockNumber`, `blockHashAndNumber`, `syncing`) are kept until the next head, on production
 * networks only. `latest` and `pre_confirmed` calls are never kept.
 * `upstreamMethod`/`upstreamParams` are the call as prepared (named params, tags mapped), so
 * positional and named forms share an entry; `clientMethod` is in the key because `stk_` and
 * `starknet_` names answer in different shapes. The key never holds the API key. Entries that
 * depend on a recent block carry it (`block`) for the cache stage's canonical check.
 */
export function planStarknetCacheEntry(
  network: string,
  clientMethod: string,
  upstreamMethod: string,
  upstreamParams: unknown,
  traits: MethodTraits,
  heads?: HeadTracker,
  dev = false,
): CachePlan | undefined {
  const key = starknetCacheKey(network, clientMethod, upstreamMethod, upstreamParams, traits, heads, dev);
  if (key === undefined) return undefined;
  const name = upstreamMethod.slice(9);
  if (heads !== undefined) {
    const plan = planWithHead(key, traits, upstreamParams, heads);
    if (plan !== undefined) return plan;
  }
  switch (name) {
    case 'chainId':
      return { key, keep: (result) => (typeof result === 'string' ? FINAL : undefined) };
    case 'getClass':
    case 'getCompiledCasm':
      return { key, keep: (result) => (isObject(result) ? FOREVER : undefined) };
    case 'getTransactionReceipt':
      return {
        key,
        keep: (result) => (isObject(result) && result.finality_status === 'ACCEPTED_ON_L1' ? FINAL : undefined),
      };
    case 'getBlockWithTxHashes':
    case 'getBlockWithTxs':
    case 'getBlockWithReceipts': {
      // only a block named by hash or number: a tag (latest, pre_confirmed, l1_accepted) moves
      const id = isObject(upstreamParams) ? upstreamParams.block_id : undefined;
      if (!isObject(id)) return undefined;
      return { key, keep: (result) => (isObject(result) && result.status === 'ACCEPTED_ON_L1' ? FINAL : undefined) };
    }
    default:
      return undefined;
  }
}

/** What the head tracker lets the cache keep: head calls, and calls that name a block by number or hash. */
function planWithHead(key: string, traits: MethodTraits, params: unknown, heads: HeadTracker): CachePlan | undefined {
  if (traits.cache === 'head') {
    // the key names the head it is answered at (`starknetCacheKey`: none on dev networks or before the first head)
    const head = heads.latest()!;
    return {
      key,
      keep: (result) =>
        result === null ? undefined : { ttlMs: TTL.head, tag: `head:${head.hash}`, block: { ...head } },
    };
  }
  if (traits.cache !== 'by-block') return undefined;
  const id = isObject(params) ? params.block_id : undefined;
  if (!isObject(id)) return undefined;
  let decided: CacheEntryOptions | undefined;
  if (typeof id.block_hash === 'string') decided = underBlock(id.block_hash);
  else if (typeof id.block_number === 'number' && Number.isSafeInteger(id.block_number)) {
    const n = id.block_number;
    const finalized = heads.finalized();
    const latest = heads.latest();
    const hash = heads.hashAt(n);
    if (finalized !== undefined && n <= finalized) decided = FINAL;
    else if (hash !== undefined && latest !== undefined && n <= latest.number) decided = underBlock(hash, n);
  }
  if (decided === undefined) return undefined;
  const options = decided;
  return {
    key,
    keep: (result) => {
      if (result === null || result === undefined) return undefined;
      // a block read by number must be the one the tag names (the node may be past a reorg the
      // tracker has not seen yet)
      const hash = isObject(result) ? result.block_hash : undefined;
      if (options.tag !== undefined && typeof hash === 'string' && blockTag(hash) !== options.tag) return undefined;
      return options;
    },
  };
}
