import type { SierraContractClass } from '../../contracts/sierraClass.js';
import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getClassAt: the class definition of a deployed contract. */
export function starknet_getClassAt(ctx: MethodContext, p: Params): SierraContractClass {
  const state = ctx.node.chain.stateAt(parseBlockId(required(p, 'block_id')));
  const c = state.getClassHashAt(parseFelt(required(p, 'contract_address'), 'contract_address'));
  if (c === undefined) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
  const d = state.getDeclared(c);
  if (!d) throw new DevchainError(ErrorCode.CLASS_HASH_NOT_FOUND);
  return d.sierra;
}
