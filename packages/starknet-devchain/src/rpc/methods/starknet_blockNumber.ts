import type { MethodContext } from '../types.js';

/** starknet_blockNumber: the latest mined block number. */
export function starknet_blockNumber(ctx: MethodContext): number {
  return ctx.node.chain.latestNumber;
}
