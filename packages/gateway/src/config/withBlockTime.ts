import type { GatewayConfig } from './types.js';

/**
 * The config with both embedded dev chains (anvil, the Starknet dev chain) mining a block every
 * `seconds`, empty or not: what `nodegate start --block-time SECONDS` does, over a config file's
 * `embedded` section too. `seconds` is already checked ({@link parseBlockTime}). Returns a new
 * frozen config.
 *
 * @example
 * const config = withBlockTime(embeddedConfig(), 2); // config.embedded.anvil.blockTime === 2
 */
export function withBlockTime(config: GatewayConfig, seconds: number): GatewayConfig {
  return Object.freeze({
    ...config,
    embedded: Object.freeze({
      ...config.embedded,
      anvil: Object.freeze({ ...config.embedded.anvil, blockTime: seconds }),
      'starknet-devchain': Object.freeze({ ...config.embedded['starknet-devchain'], blockTime: seconds }),
    }),
  });
}
