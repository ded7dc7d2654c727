import type { NetworkFamily } from '../config/types.js';
import { createMethodClassifier } from '../metrics/createMethodClassifier.js';
import type { Transport } from './UsageEvent.js';

/** The name a usage event's method is stored under. */
export type UsageMethodNamer = (network: string, transport: Transport, method: string) => string;

/** The buckets themselves: a name already bucketed stays as it is. */
const BUCKETS = new Set(['(dev)', '(other)']);

/**
 * Builds the namer that decides what a usage event's method is stored as, from the same method
 * tables as the `/metrics` labels (`createMethodClassifier`): a name in the network family's
 * table (or the IPFS command list) is kept; dev-chain namespaces (`anvil_*`, `evm_*`,
 * `devnet_*`) are `(dev)`; the placeholders (`(invalid)`, `(refused)`, `(unknown)`) and
 * subscription notifications are kept; anything else a client sends is `(other)`. The names a
 * key can make therefore come from a fixed set, whatever it sends: the usage tables hold at
 * most that many rows per key, network and minute (or hour).
 *
 * Events of a network not in `networks` (or when none are given) are named against every
 * family's table at once: still a fixed set.
 *
 * @example
 * const name = createUsageMethodNamer([{ name: 'eth-devnet', family: 'eth' }]);
 * name('eth-devnet', 'http', 'eth_call')     // 'eth_call'
 * name('eth-devnet', 'http', 'x\u0000')      // '(other)'
 * name('eth-devnet', 'http', 'evm_mine')     // '(dev)'
 */
export function createUsageMethodNamer(
  networks: readonly { readonly name: string; readonly family: NetworkFamily }[] = [],
): UsageMethodNamer {
  const classify = createMethodClassifier(networks);
  const configured = new Set(networks.map((n) => n.name));
  const anyFamily = createMethodClassifier([
    { name: 'eth', family: 'eth' },
    { name: 'starknet', family: 'starknet' },
  ]);
  return (network, transport, method) => {
    if (BUCKETS.has(method)) return method;
    if (transport === 'ipfs' || configured.has(network)) return classify(network, transport, method).method;
    const eth = anyFamily('eth', transport, method).method;
    return eth !== '(other)' ? eth : anyFamily('starknet', transport, method).method;
  };
}
