import type { CacheGenerations } from '../../cache/CacheGenerations.js';
import type { HeadTracker } from '../../cache/createHeadTracker.js';
import { ethCacheKey } from '../../cache/ethCacheKey.js';
import { planCacheEntry } from '../../cache/planCacheEntry.js';
import { planStarknetCacheEntry } from '../../cache/planStarknetCacheEntry.js';
import { starknetCacheKey } from '../../cache/starknetCacheKey.js';
import type { BlockRef, CachedEntry, ResponseCache } from '../../cache/ResponseCache.js';
import { RawJson } from '../../jsonrpc/RawJson.js';
import type { Network } from '../../network/createNetwork.js';
import type { RpcCall } from '../RpcCall.js';

/** The cache stage of the request path. */
export interface CacheStage {
  /**
   * Answers `call` from the cache when it may, else runs `forward` and keeps the answer when it
   * may; after a write (or a dev method) it makes sure nothing cached outlives what it changed.
   * Undefined when the call was answered from an in-process store at once (no promise to wait for).
   */
  around(network: Network, call: RpcCall, forward: () => Promise<void>): Promise<void> | undefined;
}

/**
 * Whether an entry read from `block` may still be served: the block is not one a reorg replaced,
 * not above the head, and the canonical hash the tracker knows at its height is its hash.
 */
export function stillCanonical(tracker: HeadTracker, block: BlockRef): boolean {
  if (tracker.wasReplaced(block.hash)) return false;
  if (block.number === undefined) return true;
  const latest = tracker.latest();
  if (latest !== undefined && block.number > latest.number) return false;
  const hash = tracker.hashAt(block.number);
  return hash === undefined || hash === block.hash;
}

/**
 * Stage "cache", around "forward": the finality-aware response cache (see
 * `cache/planCacheEntry.ts` for what is kept and how long). Hits are answered without an
 * upstream (credits are charged as for any call); `call.cache` says HIT or MISS (the HTTP edge
 * writes `X-Cache`). Both families are cached with their network's head tracker
 * (`cache/planCacheEntry.ts`, `cache/planStarknetCacheEntry.ts`).
 *
 * No stale answer: an entry that depends on a block is served only while the tracker holds that
 * block canonical ({@link stillCanonical}; the tracker hears new heads as the upstream announces
 * them), so a reorg the gateway has heard of is never answered around, even before its tags are
 * dropped (Redis) and on an instance whose store another instance filled. On a dev network every
 * write or dev method (evm_revert, anvil_setBalance…) starts a new generation of the network's
 * cache before it is answered (`generations`: in Redis when instances share one, so every
 * instance agrees), then re-reads the head; an entry is served only in the generation it was
 * read in. A call that was upstream while a reorg was seen is not kept.
 *
 * @example
 * const stage = createCacheStage(cache, heads, createMemoryGenerations());
 * await stage.around(network, call, () => forwardCall(ctx, network, gate, call));
 */
export function createCacheStage(
  cache: ResponseCache,
  heads: ReadonlyMap<string, HeadTracker>,
  generations: CacheGenerations,
): CacheStage {
  /** The entry and the network's generation (dev networks), read together (one round trip with Redis). */
  const lookup = async (key: string, network: string) => {
    const [entry, generation] = await Promise.all([cache.get(key), generations.current(network)]);
    return { entry, generation };
  };
  const peek = cache.peek?.bind(cache);
  /** A hit: the result is the entry's text, spliced into the answer as it is. */
  const served = (call: RpcCall, entry: CachedEntry) => {
    call.result = new RawJson(entry.value);
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
  const write = async (network: Network, tracker: HeadTracker | undefined, forward: () => Promise<void>) => {
    await forward();
    if (network.settings.dev) {
      // before the answer: nothing read before this write is served after it, by any instance
      await generations.bump(network.settings.name).catch(() => undefined);
      await tracker?.refresh();
    } else if (tracker !== undefined) {
      const head = tracker.latest();
      if (head !== undefined) void cache.dropTag(`head:${head.hash}`).catch(() => undefined);
    }
  };

  /** Not answered yet: looked up (unless `looked`), else forwarded and kept when the plan says so. */
  const lookUpOrForward = async (
    network: Network,
    call: RpcCall,
    tracker: HeadTracker,
    key: string,
    looked: boolean,
    forward: () => Promise<void>,
  ) => {
    const name = network.settings.name;
    const dev = network.settings.dev;
    let generation = 0;
    if (!looked) {
      let entry: CachedEntry | undefined;
      try {
        if (dev) ({ entry, generation } = await lookup(key, name));
        else entry = await cache.get(key);
      } catch {
        // the store is away (Redis down): answered upstream, not kept
        call.cache = 'MISS';
        await forward();
        return;
      }
      if (entry !== undefined && usable(entry, generation, tracker)) return served(call, entry);
    }
    call.cache = 'MISS';
    const prepared = call.prepared!;
    const plan =
      network.settings.family === 'starknet'
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
    // a reorg while the call was upstream may have replaced what it read: not kept then
    const reorgs = tracker.reorgs();
    await forward();
    if (plan === undefined || call.error !== undefined) return;
    const text = call.result instanceof RawJson ? call.result.text : JSON.stringify(call.result);
    if (text === undefined) return;
    const parsed = call.result instanceof RawJson ? safeParse(text) : call.result;
    const keep = plan.keep(parsed);
    if (keep === undefined || tracker.reorgs() !== reorgs) return;
    if (keep.block !== undefined && !stillCanonical(tracker, keep.block)) return;
    void cache
      .set(plan.key, text, dev ? { ...keep, generation } : keep)
      .then(() => {
        // a reorg seen while it was being written (Redis): its tag may have been dropped before
        // the entry arrived, so it is dropped again
        if (tracker.reorgs() !== reorgs && keep.tag !== undefined) return cache.dropTag(keep.tag);
      })
      .catch(() => undefined);
  };

  return {
    around(network, call, forward) {
      const name = network.settings.name;
      const dev = network.settings.dev;
      const prepared = call.prepared!;
      const tracker = heads.get(name);
      const traits = prepared.policy;
      if (traits.kind !== 'read') return write(network, tracker, forward);
      // the key first: a hit needs nothing else of the plan (whatever is under a key was kept by it)
      const key =
        tracker === undefined
          ? undefined
          : network.settings.family === 'starknet'
            ? starknetCacheKey(
                name,
                call.method,
                prepared.upstreamMethod,
                prepared.upstreamParams,
                traits,
                tracker,
                dev,
              )
            : ethCacheKey(name, call.method, call.request?.params, traits, tracker, dev);
      if (key === undefined || tracker === undefined) return forward();
      // production networks with an in-process store: a hit is answered at once, no promise
      if (!dev && peek !== undefined) {
        let entry: CachedEntry | undefined;
        try {
          entry = peek(key);
        } catch {
          entry = undefined;
        }
        if (entry !== undefined && usable(entry, 0, tracker)) {
          served(call, entry);
          return undefined;
        }
        return lookUpOrForward(network, call, tracker, key, true, forward);
      }
      return lookUpOrForward(network, call, tracker, key, false, forward);
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
