import type { ReadBlock } from './BlockReader.js';
import { starknetHashTag } from './starknetBlockReader.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/**
 * Reads an upstream's newHeads notification as the head tracker reads blocks: Ethereum
 * (`number` in hex, `hash`, `parentHash`; hashes in lower case) or Starknet spec 0.10
 * (`block_number`, `block_hash`, `parent_hash`; hashes as `starknetHashTag` spells them), or a
 * Starknet `starknet_subscriptionReorg` (`starting_block_number`: every block from there on was
 * replaced). Undefined for anything else.
 *
 * @example
 * parseHeadNotification('eth', { number: '0x10', hash: '0xAB…', parentHash: '0x…' }); // { number: 16, hash: '0xab…', parentHash: '0x…' }
 */
export function parseHeadNotification(
  family: 'eth' | 'starknet',
  result: unknown,
): ReadBlock | { readonly replacedFrom: number } | undefined {
  if (!isObject(result)) return undefined;
  if (family === 'eth') {
    if (typeof result.number !== 'string' || typeof result.hash !== 'string') return undefined;
    const number = Number.parseInt(result.number, 16);
    if (!Number.isSafeInteger(number)) return undefined;
    return {
      number,
      hash: result.hash.toLowerCase(),
      ...(typeof result.parentHash === 'string' ? { parentHash: result.parentHash.toLowerCase() } : {}),
    };
  }
  if (typeof result.starting_block_number === 'number') return { replacedFrom: result.starting_block_number };
  if (typeof result.block_number !== 'number' || typeof result.block_hash !== 'string') return undefined;
  return {
    number: result.block_number,
    hash: starknetHashTag(result.block_hash),
    ...(typeof result.parent_hash === 'string' ? { parentHash: starknetHashTag(result.parent_hash) } : {}),
  };
}
