import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getNonce: the nonce of a deployed contract. */
export function starknet_getNonce(ctx: MethodContext, p: Params): string {
  const state = ctx.node.chain.stateAt(parseBlockId(required(p, 'block_id')));
  const address = parseFelt(required(p, 'contract_address'), 'contract_address');
  if (state.getClassHashAt(address) === undefined) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
  return toHex(state.getNonce(address));
}
