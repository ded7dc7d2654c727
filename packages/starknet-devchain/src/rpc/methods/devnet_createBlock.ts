import { toHex } from '../../felt.js';
import type { MethodContext } from '../types.js';

/** devnet_createBlock: close the pre-confirmed block (possibly empty) into a new block. */
export function devnet_createBlock(ctx: MethodContext): { block_hash: string } {
  return { block_hash: toHex(ctx.node.chain.mine().hash) };
}
