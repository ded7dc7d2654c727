import type { NetworkFamily } from '../config/types.js';
import { ETH_DEV_NAMESPACES, ethDevMethod, ethMethods } from '../families/eth/ethMethods.js';
import { starknetMethods } from '../families/starknet/starknetMethods.js';
import type { MethodKind } from '../families/types.js';
import { ipfsCommands } from '../ipfs/ipfsCommands.js';
import { GATEWAY_METHODS } from '../ipfsGateway/gatewayMethods.js';
import type { Transport } from '../usage/UsageEvent.js';
import { SUBSCRIPTION_NOTIFICATIONS } from './isSubscriptionNotification.js';

/** A request's class in metrics: the method table's `kind`, `ipfs`, or `other` (unknown, invalid, refused). */
export type MethodClass = MethodKind | 'ipfs' | 'other';

/** A usage event's bounded labels: its class and a method name taken from a table (or a placeholder). */
export interface ClassifiedMethod {
  readonly class: MethodClass;
  /** A name from the family's table or the IPFS command list; `(dev)`, `(other)`, `(refused)`, `(invalid)`, `(unknown)` otherwise. */
  readonly method: string;
  /** A subscription's notification (not a request: no latency of its own). */
  readonly notification: boolean;
}

/** Placeholders the request path records instead of a method name. */
const PLACEHOLDERS = ['(refused)', '(invalid)', '(unknown)'] as const;
const OTHER: ClassifiedMethod = Object.freeze({ class: 'other', method: '(other)', notification: false });
const IPFS_OTHER: ClassifiedMethod = Object.freeze({ class: 'ipfs', method: '(other)', notification: false });
const DEV: ClassifiedMethod = Object.freeze({ class: ethDevMethod.kind, method: '(dev)', notification: false });

const row = (cls: MethodClass, method: string, notification = false): ClassifiedMethod =>
  Object.freeze({ class: cls, method, notification });

/**
 * Builds the classifier that turns a usage event's network, transport and method (the
 * client's text) into bounded metric labels: methods in the network family's table (eth:
 * `ethMethods`; Starknet: `stk_`/`starknet_` + `starknetMethods`) keep their name and get their
 * row's `kind`; every IPFS event gets class `ipfs` (named when in `ipfsCommands`); subscription notifications
 * class `subscription`; dev-chain namespaces `(dev)`; anything else `(other)`. The label set
 * is therefore fixed by the tables, whatever clients send.
 *
 * @example
 * const classify = createMethodClassifier([{ name: 'eth-devnet', family: 'eth' }]);
 * classify('eth-devnet', 'http', 'eth_call')      // { class: 'read', method: 'eth_call', notification: false }
 * classify('eth-devnet', 'http', 'eth_madeUp')    // { class: 'other', method: '(other)', notification: false }
 */
export function createMethodClassifier(
  networks: readonly { readonly name: string; readonly family: NetworkFamily }[],
): (network: string, transport: Transport, method: string) => ClassifiedMethod {
  const common = new Map<string, ClassifiedMethod>();
  for (const p of PLACEHOLDERS) common.set(p, row('other', p));
  for (const n of SUBSCRIPTION_NOTIFICATIONS) {
    common.set(n, row('subscription', n, true));
    if (n.startsWith('starknet_')) common.set(`stk_${n.slice(9)}`, row('subscription', `stk_${n.slice(9)}`, true));
  }
  const eth = new Map(common);
  for (const [name, policy] of Object.entries(ethMethods)) eth.set(name, row(policy.kind, name));
  const starknet = new Map(common);
  for (const [name, policy] of Object.entries(starknetMethods)) {
    starknet.set(`starknet_${name}`, row(policy.kind, `starknet_${name}`));
    starknet.set(`stk_${name}`, row(policy.kind, `stk_${name}`));
  }
  const ipfs = new Map<string, ClassifiedMethod>();
  for (const p of PLACEHOLDERS) ipfs.set(p, row('ipfs', p));
  for (const name of Object.keys(ipfsCommands)) ipfs.set(name, row('ipfs', name));
  // dedicated gateways' requests (network ipfs-gateway), by kind of answer
  for (const name of GATEWAY_METHODS) ipfs.set(name, row('ipfs', name));
  const byNetwork = new Map<string, { table: Map<string, ClassifiedMethod>; family: NetworkFamily }>();
  for (const n of networks) byNetwork.set(n.name, { table: n.family === 'eth' ? eth : starknet, family: n.family });

  return (network, transport, method) => {
    if (transport === 'ipfs') return ipfs.get(method) ?? IPFS_OTHER;
    const found = byNetwork.get(network);
    if (found === undefined) return common.get(method) ?? OTHER;
    const known = found.table.get(method);
    if (known !== undefined) return known;
    if (found.family === 'eth' ? ETH_DEV_NAMESPACES.some((ns) => method.startsWith(ns)) : method.startsWith('devnet_'))
      return DEV;
    return OTHER;
  };
}
