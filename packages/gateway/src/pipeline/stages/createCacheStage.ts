import type { HeadTracker } from '../../cache/createHeadTracker.js';
import { planCacheEntry } from '../../cache/planCacheEntry.js';
import { planStarknetCacheEntry } from '../../cache/planStarknetCacheEntry.js';
import type { ResponseCache } from '../../cache/ResponseCache.js';
import { RawJson } from '../../jsonrpc/RawJson.js';
import type { Network } from '../../network/createNetwork.js';
import type { RpcCall } from '../RpcCall.js';

/** The cache stage of the request path. */
export interface CacheStage {
  /**
   * Answers `call` from the cache when it may, else runs `forward` and keeps the answer when it
   * may; after a write (or a dev method) it makes sure nothing cached outlives what it changed.
   */
  around(network: Network, call: RpcCall, forward: () => Promise<void>): Promise<void>;
}

/**
 * Stage "cache", around "forward": the finality-aware response cache (see
 * `cache/planCacheEntry.ts` for what is kept and how long). Hits are answered without an
 * upstream (credits are charged as for any call); `call.cache` says HIT or MISS (the HTTP edge
 * writes `X-Cache`). Both families are cached with their network's head tracker
 * (`cache/planCacheEntry.ts`, `cache/planStarknetCacheEntry.ts`). On a dev network,
 * every write or dev method bumps the network's epoch (part of every key) and re-reads the head
 * before answering, so a client never reads what an evm_revert or a new block replaced.
 *
 * @example
 * const stage = createCacheStage(cache, heads);
 * await stage.around(network, call, () => forwardCall(ctx, network, gate, call));
 */
export function createCacheStage(cache: ResponseCache, heads: ReadonlyMap<string, HeadTracker>): CacheStage {
  const epochs = new Map<string, number>();
  return {
    async around(network, call, forward) {
      const name = network.settings.name;
      const prepared = call.prepared!;
      const tracker = heads.get(name);
      const traits = prepared.policy;
      if (traits.kind !== 'read') {
        await forward();
        if (network.settings.dev) {
          epochs.set(name, (epochs.get(name) ?? 0) + 1);
          await tracker?.refresh();
        } else if (tracker !== undefined) {
          const head = tracker.latest();
          if (head !== undefined) void cache.dropTag(`head:${head.hash}`).catch(() => undefined);
        }
        return;
      }
      const plan =
        network.settings.family === 'starknet'
          ? planStarknetCacheEntry(
              name,
              call.method,
              prepared.upstreamMethod,
              prepared.upstreamParams,
              traits,
              epochs.get(name) ?? 0,
              tracker,
              network.settings.dev,
            )
          : planCacheEntry(
              name,
              call.method,
              call.request?.params,
              traits,
              tracker,
              epochs.get(name) ?? 0,
              network.settings.dev,
            );
      if (plan === undefined) {
        await forward();
        return;
      }
      const hit = await cache.get(plan.key).catch(() => undefined);
      if (hit !== undefined) {
        call.result = new RawJson(hit);
        call.cache = 'HIT';
        return;
      }
      call.cache = 'MISS';
      // a reorg while the call was upstream may have replaced what it read: not kept then
      const reorgs = tracker?.reorgs();
      await forward();
      if (call.error !== undefined) return;
      const text = call.result instanceof RawJson ? call.result.text : JSON.stringify(call.result);
      if (text === undefined) return;
      const parsed = call.result instanceof RawJson ? safeParse(text) : call.result;
      const keep = plan.keep(parsed);
      if (keep === undefined || tracker?.reorgs() !== reorgs) return;
      void cache
        .set(plan.key, text, keep)
        .then(() => {
          // a reorg seen while it was being written (Redis): its tag may have been dropped before
          // the entry arrived, so it is dropped again
          if (tracker?.reorgs() !== reorgs && keep.tag !== undefined) return cache.dropTag(keep.tag);
        })
        .catch(() => undefined);
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
