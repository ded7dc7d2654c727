import type { SierraContractClass } from '../../contracts/sierraClass.js';
import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_getClass: a declared class definition. */
export function starknet_getClass(ctx: MethodContext, p: Params): SierraContractClass {
  const state = ctx.node.chain.stateAt(parseBlockId(required(p, 'block_id')));
  const d = state.getDeclared(parseFelt(required(p, 'class_hash'), 'class_hash'));
  if (!d) throw new DevchainError(ErrorCode.CLASS_HASH_NOT_FOUND);
  return d.sierra;
}
