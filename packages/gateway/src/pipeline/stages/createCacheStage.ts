import type { CacheGenerations } from '../../cache/CacheGenerations.js';
import type { HeadTracker } from '../../cache/createHeadTracker.js';
import { ethCacheKey } from '../../cache/ethCacheKey.js';
import { planCacheEntry } from '../../cache/planCacheEntry.js';
import { planStarknetCacheEntry } from '../../cache/planStarknetCacheEntry.js';
import type { CachedEntry, ResponseCache } from '../../cache/ResponseCache.js';
import { starknetCacheKey } from '../../cache/starknetCacheKey.js';
import { stillCanonical } from '../../cache/stillCanonical.js';
import { RawJson } from '../../jsonrpc/RawJson.js';
import type { Network } from '../../network/createNetwork.js';
import type { RequestContext } from '../RequestContext.js';
import type { RpcCall } from '../RpcCall.js';

/** What the cache stage runs on a miss: the call forwarded (`forwardCall` with its other arguments bound once). */
export type CacheForward = (ctx: RequestContext, network: Network, call: RpcCall) => Promise<void>;

/** The cache stage of the request path. */
export interface CacheStage {
  /**
   * Answers `call` from the cache when it may, else runs `forward(ctx, network, call)` and keeps the
   * answer when it may; after a write (or a dev method) it makes sure nothing cached outlives what
   * it changed. Undefined when the call was answered from an in-process store at once (no promise
   * to wait for). A hit's result is the entry's text, or its UTF-8 bytes when the store keeps them.
   */
  around(ctx: RequestContext, network: Network, call: RpcCall, forward: CacheForward): Promise<void> | undefined;
}

/** The call's cache key in its family's spelling (`ethCacheKey`, `starknetCacheKey`). */
function keyOf(network: Network, call: RpcCall, tracker: HeadTracker): string | undefined {
  const { name, dev, family } = network.settings;
  const prepared = call.prepared!;
  return family === 'starknet'
    ? starknetCacheKey(
        name,
        call.method,
        prepared.upstreamMethod,
        prepared.upstreamParams,
        prepared.policy,
        tracker,
        dev,
      )
    : ethCacheKey(name, call.method, call.request?.params, prepared.policy, tracker, dev);
}

/** Whether and how the call's answer is kept (`planCacheEntry`, `planStarknetCacheEntry`): on a miss only. */
function planOf(network: Network, call: RpcCall, tracker: HeadTracker) {
  const { name, dev, family } = network.settings;
  const prepared = call.prepared!;
  return family === 'starknet'
    ? planStarknetCacheEntry(
        name,
        call.method,
        prepared.upstreamMethod,
        prepared.upstreamParams,
        prepared.policy,
        tracker,
        dev,
      )
    : planCacheEntry(name, call.method, call.request?.params, prepared.policy, tracker, dev);
}

/**
 * Stage "cache", around "forward": the finality-aware response cache (see
 * `cache/planCacheEntry.ts` for what is kept and how long). Hits are answered without an
 * upstream (credits are charged as for any call); `call.cache` says HIT or MISS (the HTTP edge
 * writes `X-Cache`). Both families are cached with their network's head tracker
 * (`cache/planCacheEntry.ts`, `cache/planStarknetCacheEntry.ts`). A call is looked up by its key
 * alone; its plan is made on a miss only (whatever is under a key was kept by that plan).
 *
 * No stale answer: an entry that depends on a block is served only while the tracker holds that
 * block canonical (`cache/stillCanonical.ts`; the tracker hears new heads as the upstream
 * announces them), so a reorg the gateway has heard of is never answered around, even before its
 * tags are dropped (Redis) and on an instance whose store another instance filled. On a dev
 * network every write or dev method (evm_revert, anvil_setBalance…) starts a new generation of
 * the network's cache before it is answered (`generations`: in Redis when instances share one,
 * so every instance agrees), then re-reads the head; an entry is served only in the generation
 * it was read in. A call that was upstream while a reorg was seen is not kept.
 *
 * @example
 * const stage = createCacheStage(cache, heads, createMemoryGenerations());
 * await stage.around(ctx, network, call, (ctx, network, call) => forwardCall(ctx, network, gate, call, filters));
 */
export function createCacheStage(
  cache: ResponseCache,
  heads: ReadonlyMap<string, HeadTracker>,
  generations: CacheGenerations,
): CacheStage {
  const peek = cache.peek?.bind(cache);
  /** A hit: the result is the entry's bytes or text, spliced into the answer as it is. */
  const served = (call: RpcCall, entry: CachedEntry) => {
    const bytes = entry.bytes;
    call.result = bytes === undefined ? new RawJson(entry.value) : new RawJson(undefined, bytes);
    call.cache = 'HIT';
  };
  /** Whether an entry found under the call's key may answer it (its generation, its block). */
  const usable = (entry: CachedEntry, generation: number, tracker: HeadTracker) => {
    if (entry.generation !== generation) return false;
    if (entry.block === undefined || stillCanonical(tracker, entry.block)) return true;
    // replaced by a reorg whose tags are still being dropped: gone now
    void cache.dropTag(`blk:${entry.block.hash}`).catch(() => undefined);
    return false;
  };

  /** A write or a dev method: forwarded, then nothing it may have changed is served again. */
  const write = async (
    ctx: RequestContext,
    network: Network,
    call: RpcCall,
    tracker: HeadTracker | undefined,
    forward: CacheForward,
  ) => {
    await forward(ctx, network, call);
    if (network.settings.dev) {
      // before the answer: nothing read before this write is served after it, by any instance
      await generations.bump(network.settings.name).catch(() => undefined);
      await tracker?.refresh();
    } else if (tracker !== undefined) {
      const head = tracker.latest();
      if (head !== undefined) void cache.dropTag(`head:${head.hash}`).catch(() => undefined);
    }
  };

  /** Looked up in the store (with the network's generation on a dev network: one round trip with Redis). */
  const lookUp = async (
    ctx: RequestContext,
    network: Network,
    call: RpcCall,
    tracker: HeadTracker,
    key: string,
    forward: CacheForward,
  ) => {
    const { name, dev } = network.settings;
    let entry: CachedEntry | undefined;
    let generation = 0;
    try {
      if (dev) [entry, generation] = await Promise.all([cache.get(key), generations.current(name)]);
      else entry = await cache.get(key);
    } catch {
      // the store is away (Redis down): answered upstream, not kept
      call.cache = 'MISS';
      await forward(ctx, network, call);
      return;
    }
    if (entry !== undefined && usable(entry, generation, tracker)) return served(call, entry);
    return miss(ctx, network, call, tracker, generation, forward);
  };

  /** Not in the cache: forwarded, and kept (in `generation`) when the call's plan says so. */
  const miss = async (
    ctx: RequestContext,
    network: Network,
    call: RpcCall,
    tracker: HeadTracker,
    generation: number,
    forward: CacheForward,
  ) => {
    call.cache = 'MISS';
    const plan = planOf(network, call, tracker);
    // a reorg while the call was upstream may have replaced what it read: not kept then
    const reorgs = tracker.reorgs();
    await forward(ctx, network, call);
    if (plan === undefined || call.error !== undefined) return;
    const text = call.result instanceof RawJson ? call.result.text : JSON.stringify(call.result);
    if (text === undefined) return;
    const parsed = call.result instanceof RawJson ? safeParse(text) : call.result;
    const keep = plan.keep(parsed);
    if (keep === undefined || tracker.reorgs() !== reorgs) return;
    if (keep.block !== undefined && !stillCanonical(tracker, keep.block)) return;
    void cache
      .set(plan.key, text, network.settings.dev ? { ...keep, generation } : keep)
      .then(() => {
        // a reorg seen while it was being written (Redis): its tag may have been dropped before
        // the entry arrived, so it is dropped again
        if (tracker.reorgs() !== reorgs && keep.tag !== undefined) return cache.dropTag(keep.tag);
      })
      .catch(() => undefined);
  };

  return {
    around(ctx, network, call, forward) {
      const tracker = heads.get(network.settings.name);
      if (call.prepared!.policy.kind !== 'read') return write(ctx, network, call, tracker, forward);
      // the key first: a hit needs nothing else of the plan
      const key = tracker === undefined ? undefined : keyOf(network, call, tracker);
      if (key === undefined || tracker === undefined) return forward(ctx, network, call);
      // production networks with an in-process store: a hit is answered at once, no promise
      if (!network.settings.dev && peek !== undefined) {
        let entry: CachedEntry | undefined;
        try {
          entry = peek(key);
        } catch {
          entry = undefined;
        }
        if (entry === undefined || !usable(entry, 0, tracker)) return miss(ctx, network, call, tracker, 0, forward);
        served(call, entry);
        return undefined;
      }
      return lookUp(ctx, network, call, tracker, key, forward);
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
