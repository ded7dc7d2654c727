import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getClassHashAt: the class hash of a deployed contract. */
export function starknet_getClassHashAt(ctx: MethodContext, p: Params): string {
  const state = ctx.node.chain.stateAt(parseBlockId(required(p, 'block_id')));
  const c = state.getClassHashAt(parseFelt(required(p, 'contract_address'), 'contract_address'));
  if (c === undefined) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
  return toHex(c);
}
