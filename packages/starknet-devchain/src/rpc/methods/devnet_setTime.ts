import { invalidParams } from '../../errors.js';
import { toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** devnet_setTime: set the chain time (seconds), optionally mining a block at it. */
export function devnet_setTime(ctx: MethodContext, p: Params): { block_timestamp: number; block_hash?: string } {
  const time = required(p, 'time');
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0)
    throw invalidParams('time: expected seconds');
  const b = ctx.node.chain.setTime(time, p.generate_block === true);
  return b ? { block_timestamp: time, block_hash: toHex(b.hash) } : { block_timestamp: time };
}
