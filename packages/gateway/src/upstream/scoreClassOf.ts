import type { MethodTraits } from '../families/types.js';

/**
 * The classes an upstream is scored in: `write`s; `heavy` reads, which make a node work (logs
 * over a range, a block's receipts, traces, simulations, estimates, proofs of storage); `light`
 * reads (lookups, state at a block, the head). A node is fast or slow per class, and a slow
 * `eth_getLogs` says nothing about how fast its `eth_blockNumber` is.
 */
export type ScoreClass = 'light' | 'heavy' | 'write';

/** Every class, in the order /health and /metrics show them. */
export const SCORE_CLASSES: readonly ScoreClass[] = ['light', 'heavy', 'write'];

/**
 * Reads costing at least this many credits are heavy: the family tables price a call by what it
 * costs a node (eth_getLogs 255, eth_estimateGas 300, eth_getBlockReceipts 1000, Starknet
 * getEvents 255, traces and simulations 300-500; lookups and state reads 5-150).
 */
const HEAVY_CREDITS = 250;

/**
 * The score class of a method, from its row in the family's method table (`kind` and `credits`):
 * no list of names.
 *
 * @example
 * scoreClassOf(ethMethods.eth_getLogs);          // 'heavy'
 * scoreClassOf(ethMethods.eth_blockNumber);      // 'light'
 * scoreClassOf(ethMethods.eth_sendRawTransaction); // 'write'
 */
export function scoreClassOf(traits: Pick<MethodTraits, 'kind' | 'credits'>): ScoreClass {
  if (traits.kind === 'write') return 'write';
  return traits.credits >= HEAVY_CREDITS ? 'heavy' : 'light';
}
