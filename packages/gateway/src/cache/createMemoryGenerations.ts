import type { CacheGenerations } from './CacheGenerations.js';

/**
 * Cache generations in this process (one gateway instance, no Redis).
 *
 * @example
 * const generations = createMemoryGenerations();
 * await generations.bump('eth-devnet');
 */
export function createMemoryGenerations(): CacheGenerations {
  const generations = new Map<string, number>();
  return {
    current: async (network) => generations.get(network) ?? 0,
    async bump(network) {
      generations.set(network, (generations.get(network) ?? 0) + 1);
    },
  };
}
