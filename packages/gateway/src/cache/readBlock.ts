import type { ReadBlock } from './BlockReader.js';
import { starknetHashTag } from './starknetHashTag.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/**
 * A block (or a block header) as a head tracker keeps it, from either family's JSON: Ethereum
 * (`number` in hex, `hash`, `parentHash`; hashes in lower case, the spelling of the cache's
 * block tags) or Starknet (`block_number`, `block_hash`, `parent_hash`; hashes as
 * `starknetHashTag` spells them). Undefined for anything else (a pre-confirmed Starknet block has
 * neither hash nor number fixed yet). Used by the block readers and for newHeads notifications.
 *
 * @example
 * readBlock('eth', { number: '0x10', hash: '0xAB…', parentHash: '0x…' }); // { number: 16, hash: '0xab…', parentHash: '0x…' }
 */
export function readBlock(family: 'eth' | 'starknet', result: unknown): ReadBlock | undefined {
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
  if (typeof result.block_number !== 'number' || typeof result.block_hash !== 'string') return undefined;
  return {
    number: result.block_number,
    hash: starknetHashTag(result.block_hash),
    ...(typeof result.parent_hash === 'string' ? { parentHash: starknetHashTag(result.parent_hash) } : {}),
  };
}
