import type { GatewayConfig } from '../config/types.js';
import { embeddedBackendsOf } from './embeddedBackendsOf.js';

const ON_DEMAND = 'on demand (each transaction mines one)';

/**
 * The startup summary's line on how the embedded dev chains produce blocks, or undefined when the
 * config runs none: on demand by default (nothing happens to a newHeads subscriber until a
 * transaction is sent, so the line says how to change it), else every N seconds.
 *
 * @example
 * describeBlockProduction(embeddedConfig());
 * // 'blocks: on demand (each transaction mines one); --block-time N to mine every N s'
 * describeBlockProduction(withBlockTime(embeddedConfig(), 2));
 * // 'blocks: every 2 s, empty or not (anvil, starknet-devchain); a transaction waits for the next block'
 */
export function describeBlockProduction(config: GatewayConfig): string | undefined {
  const chains = [...embeddedBackendsOf(config).keys()].filter(
    (b): b is 'anvil' | 'starknet-devchain' => b === 'anvil' || b === 'starknet-devchain',
  );
  if (chains.length === 0) return undefined;
  const times = chains.map((c) => config.embedded[c].blockTime);
  if (times.every((t) => t === undefined)) return `blocks: ${ON_DEMAND}; --block-time N to mine every N s`;
  if (times.every((t) => t === times[0])) {
    return `blocks: every ${times[0]} s, empty or not (${chains.join(', ')}); a transaction waits for the next block`;
  }
  const each = chains.map((c, i) => `${c} ${times[i] === undefined ? ON_DEMAND : `every ${times[i]} s`}`);
  return `blocks: ${each.join('; ')}`;
}
