import { unsupportedAction } from '../../errors.js';
import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';
import { onlyParams } from './devnetParams.js';

/**
 * devnet_acceptOnL1: the block `starting_block_id` and every block before it not yet accepted become
 * ACCEPTED_ON_L1 (blocks, receipts, statuses; the `l1_accepted` tag names it); answers their hashes, that block
 * first. The pre-confirmed block and a block already accepted are refused (-32600).
 */
export function devnet_acceptOnL1(ctx: MethodContext, p: Params): { accepted: string[] } {
  onlyParams(p, ['starting_block_id']);
  const id = parseBlockId(required(p, 'starting_block_id'), 'starting_block_id');
  const chain = ctx.node.chain;
  const r = chain.resolve(id);
  if (r.kind === 'pending') throw unsupportedAction('Pre-confirmed block cannot be accepted on L1');
  const n = r.block.number;
  if (chain.isAcceptedOnL1(n)) throw unsupportedAction('Block already accepted on L1');
  const accepted: string[] = [];
  for (let b = n; b > chain.l1AcceptedNumber; b--) accepted.push(toHex(chain.blockByNumber(b)!.hash));
  chain.acceptOnL1(n);
  return { accepted };
}
