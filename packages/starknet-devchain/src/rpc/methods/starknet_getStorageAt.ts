import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getStorageAt: a storage value of a deployed contract. */
export function starknet_getStorageAt(ctx: MethodContext, p: Params): string {
  const state = ctx.node.chain.stateAt(parseBlockId(required(p, 'block_id')));
  const address = parseFelt(required(p, 'contract_address'), 'contract_address');
  if (state.getClassHashAt(address) === undefined) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
  return toHex(state.getStorage(address, parseFelt(required(p, 'key'), 'key')));
}
