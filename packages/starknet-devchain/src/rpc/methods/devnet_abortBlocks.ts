import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';
import { onlyParams } from './devnetParams.js';

/**
 * devnet_abortBlocks: aborts the blocks from `starting_block_id` to the latest (`pre_confirmed`: its transactions
 * are mined into a block first, which is then aborted). Their state and transactions are gone, their hashes answer
 * BLOCK_NOT_FOUND, the next block takes the first aborted number, and WebSocket subscribers get
 * `starknet_subscriptionReorg`. The genesis block and blocks accepted on L1 cannot be aborted (-32600).
 */
export function devnet_abortBlocks(ctx: MethodContext, p: Params): { aborted: string[] } {
  onlyParams(p, ['starting_block_id']);
  const id = parseBlockId(required(p, 'starting_block_id'), 'starting_block_id');
  const chain = ctx.node.chain;
  const from = 'tag' in id && id.tag === 'pre_confirmed' ? chain.mine().number : chain.numberOf(id);
  return { aborted: ctx.node.abortBlocks(from).map(toHex) };
}
