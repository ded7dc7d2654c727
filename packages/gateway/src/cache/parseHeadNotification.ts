import type { ReadBlock } from './BlockReader.js';
import { readBlock } from './readBlock.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/**
 * Reads an upstream's newHeads notification as the head tracker reads blocks (`readBlock`:
 * Ethereum, or Starknet spec 0.10), or a Starknet `starknet_subscriptionReorg`
 * (`starting_block_number`: every block from there on was replaced). Undefined for anything else.
 *
 * @example
 * parseHeadNotification('eth', { number: '0x10', hash: '0xAB…', parentHash: '0x…' }); // { number: 16, hash: '0xab…', parentHash: '0x…' }
 * parseHeadNotification('starknet', { starting_block_number: 5, … }); // { replacedFrom: 5 }
 */
export function parseHeadNotification(
  family: 'eth' | 'starknet',
  result: unknown,
): ReadBlock | { readonly replacedFrom: number } | undefined {
  if (family === 'starknet' && isObject(result) && typeof result.starting_block_number === 'number') {
    return { replacedFrom: result.starting_block_number };
  }
  return readBlock(family, result);
}
