import type { MethodTraits } from '../families/types.js';
import type { HeadTracker } from './createHeadTracker.js';

/**
 * The cache key of an Ethereum call (the network, the method and the params; a `head` call also
 * the head it is answered at), or undefined for a call the cache never keeps (writes, `never`,
 * `head` calls on dev networks or before the first head). It decides nothing else: a call with a
 * key may still not be kept (`planCacheEntry` decides on a miss), but whatever is found under it
 * was kept by that plan, so the cache stage can look a call up before planning it.
 *
 * @example
 * ethCacheKey('mainnet', 'eth_getBlockByNumber', ['0x10', false], traits, heads, false); // 'mainnet|eth_getBlockByNumber|["0x10",false]'
 */
export function ethCacheKey(
  network: string,
  method: string,
  params: unknown,
  traits: MethodTraits,
  heads: HeadTracker | undefined,
  dev: boolean,
): string | undefined {
  if (traits.kind !== 'read' || traits.cache === 'never' || heads === undefined) return undefined;
  const key = `${network}|${method}|${JSON.stringify(Array.isArray(params) ? params : [])}`;
  if (traits.cache !== 'head') return key;
  const head = heads.latest();
  return dev || head === undefined ? undefined : `${key}|${head.hash}`;
}
