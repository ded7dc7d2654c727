import { invalidParams } from '../../errors.js';
import { toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** devnet_increaseTime: move time forward by `time` seconds and mine a block. */
export function devnet_increaseTime(
  ctx: MethodContext,
  p: Params,
): { timestamp_increased_by: number; block_hash: string } {
  const time = required(p, 'time');
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0)
    throw invalidParams('time: expected seconds');
  return { timestamp_increased_by: time, block_hash: toHex(ctx.node.chain.increaseTime(time).hash) };
}
