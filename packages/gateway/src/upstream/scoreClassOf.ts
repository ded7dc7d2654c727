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
 * The score class of a method, from its row in the family's method table (`kind` and `heavy`):
 * no list of names, and not its price (a credit cost may change without the node working more).
 *
 * @example
 * scoreClassOf(ethMethods.eth_getLogs);          // 'heavy'
 * scoreClassOf(ethMethods.eth_blockNumber);      // 'light'
 * scoreClassOf(ethMethods.eth_sendRawTransaction); // 'write'
 */
export function scoreClassOf(traits: Pick<MethodTraits, 'kind' | 'heavy'>): ScoreClass {
  if (traits.kind === 'write') return 'write';
  return traits.heavy ? 'heavy' : 'light';
}
