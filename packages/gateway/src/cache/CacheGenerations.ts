/**
 * The generation of each network's cache, for dev networks: every write or dev method
 * (`evm_revert`, `anvil_setBalance`…) that passes through any gateway starts a new one, and an
 * entry is served only in the generation it was read in. Kept where every instance that can
 * serve the entries sees it: in process for one instance, in Redis when instances share one
 * (`createRedisGenerations`), so a write through one instance is never answered around by
 * another's cache. Two implementations share one contract suite (`generationsContract.ts`).
 */
export interface CacheGenerations {
  /** The current generation of a network (0 until its first bump). */
  current(network: string): Promise<number>;
  /** Starts a new generation; resolves once every instance sees it. */
  bump(network: string): Promise<void>;
}
