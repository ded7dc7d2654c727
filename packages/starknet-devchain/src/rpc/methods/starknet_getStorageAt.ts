import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { readFlags } from '../readFlags.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_getStorageAt: a storage value of a deployed contract; with the response flag
 * INCLUDE_LAST_UPDATE_BLOCK, the value and the number of the block that last wrote the slot.
 */
export function starknet_getStorageAt(
  ctx: MethodContext,
  p: Params,
): string | { value: string; last_update_block: number } {
  const flags = readFlags(p.response_flags, 'response_flags', ['INCLUDE_LAST_UPDATE_BLOCK']);
  const id = parseBlockId(required(p, 'block_id'));
  const state = ctx.node.chain.stateAt(id);
  const address = parseFelt(required(p, 'contract_address'), 'contract_address');
  if (state.getClassHashAt(address) === undefined) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
  const key = parseFelt(required(p, 'key'), 'key');
  const value = toHex(state.getStorage(address, key));
  if (!flags.has('INCLUDE_LAST_UPDATE_BLOCK')) return value;
  return { value, last_update_block: ctx.node.chain.storageUpdatedAt(address, key, id) };
}
