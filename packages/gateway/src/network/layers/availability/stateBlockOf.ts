import { ethBlockParam } from '../../../families/eth/ethBlockParam.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { parseAddress, parseCallObject } from '../../../families/eth/params.js';
import type { MethodPolicy } from '../../../families/types.js';
import type { NetworkCall } from '../../types.js';

/**
 * The Ethereum methods that read state at their block (a pruned node lacks it for old blocks),
 * read once from the method table: a block parameter after an address or a call object
 * (`eth_getBalance`, `eth_getCode`, `eth_getStorageAt`, `eth_getTransactionCount`,
 * `eth_getProof`, `eth_call`, `eth_estimateGas`, `eth_createAccessList`). Blocks, receipts and
 * logs are kept by pruned nodes too, and are not in it.
 */
const STATE_METHODS: ReadonlySet<string> = (() => {
  const found = new Set<string>();
  const table: Readonly<Record<string, MethodPolicy>> = ethMethods;
  for (const [method, row] of Object.entries(table)) {
    const where = ethBlockParam(method);
    const first = row.params[0]?.parse;
    if (where !== undefined && !where.filter && where.at > 0 && (first === parseAddress || first === parseCallObject))
      found.add(method);
  }
  return found;
})();

/**
 * The height whose state `call` reads, when it reads state at a given height (`earliest` is 0),
 * else undefined (a tag that follows the head, a hash, a method that reads no state). Only the
 * calls it names a height for are routed by block availability.
 *
 * @example
 * stateBlockOf(call('eth_getBalance', ['0xab…', '0x10'])); // 16
 * stateBlockOf(call('eth_getBalance', ['0xab…', 'latest'])); // undefined
 */
export function stateBlockOf(call: Pick<NetworkCall, 'method' | 'requested'>): number | undefined {
  const r = call.requested;
  if (r === undefined || r.kind === 'hash' || !STATE_METHODS.has(call.method)) return undefined;
  if (r.kind === 'number') return r.number;
  return r.tag === 'earliest' ? 0 : undefined;
}
