import type { MethodTraits } from '../families/types.js';
import { canonicalParams } from './canonicalParams.js';
import type { HeadTracker } from './createHeadTracker.js';

/**
 * The cache key of a Starknet call: the network, the method as the client named it (`stk_` and
 * `starknet_` answer in different shapes) and the params as prepared, canonical (named and
 * positional forms share a key); a `head` call also the head it is answered at. Undefined for a
 * call the cache never keeps. Like `ethCacheKey`, it decides nothing else
 * (`planStarknetCacheEntry` does, on a miss).
 *
 * @example
 * starknetCacheKey('sn', 'starknet_getClass', 'starknet_getClass', { class_hash: '0xabc', block_id: 'latest' }, traits);
 * // 'sn|starknet_getClass|{"block_id":"latest","class_hash":"0xabc"}'
 */
export function starknetCacheKey(
  network: string,
  clientMethod: string,
  upstreamMethod: string,
  upstreamParams: unknown,
  traits: MethodTraits,
  heads?: HeadTracker,
  dev = false,
): string | undefined {
  if (traits.kind !== 'read' || traits.cache === 'never' || !upstreamMethod.startsWith('starknet_')) return undefined;
  const key = `${network}|${clientMethod}|${canonicalParams(upstreamParams ?? {})}`;
  if (traits.cache !== 'head') return key;
  const head = heads?.latest();
  return dev || head === undefined ? undefined : `${key}|${head.hash}`;
}
