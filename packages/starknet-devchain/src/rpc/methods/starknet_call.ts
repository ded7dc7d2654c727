import { ContractNotDeployed, EntryPointNotFound } from '../../chain/execute.js';
import { ExecutionFailure } from '../../contracts/types.js';
import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { parseFelt, parseFelts, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** starknet_call: run a view of a contract at a block. */
export function starknet_call(ctx: MethodContext, p: Params): string[] {
  const req = required(p, 'request');
  if (typeof req !== 'object' || req === null) throw invalidParams('request: expected an object');
  const r = req as Record<string, unknown>;
  const id = parseBlockId(required(p, 'block_id'));
  const to = parseFelt(r.contract_address, 'request.contract_address');
  const sel = parseFelt(r.entry_point_selector, 'request.entry_point_selector');
  const calldata = parseFelts(r.calldata ?? [], 'request.calldata');
  try {
    return ctx.node.chain.call(to, sel, calldata, id).map(toHex);
  } catch (e) {
    if (e instanceof ContractNotDeployed) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
    if (e instanceof EntryPointNotFound) throw new DevchainError(ErrorCode.ENTRYPOINT_NOT_FOUND);
    if (e instanceof ExecutionFailure)
      throw new DevchainError(ErrorCode.CONTRACT_ERROR, { data: { revert_error: e.message } });
    throw e;
  }
}
