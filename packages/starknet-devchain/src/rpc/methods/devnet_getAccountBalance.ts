import { invalidParams } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** devnet_getAccountBalance: fee-token balance of an address (`unit` FRI = STRK by default, WEI = ETH). */
export function devnet_getAccountBalance(ctx: MethodContext, p: Params): { amount: string; unit: 'FRI' | 'WEI' } {
  const address = parseFelt(required(p, 'address'), 'address');
  const unit = p.unit === undefined ? 'FRI' : p.unit;
  if (unit !== 'FRI' && unit !== 'WEI') throw invalidParams('unit: expected FRI or WEI');
  const id = parseBlockId(p.block_id ?? 'latest');
  return { amount: ctx.node.chain.balanceOf(address, unit, id).toString(), unit };
}
