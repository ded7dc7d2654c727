import { toHex } from '../../felt.js';
import type { MethodContext } from '../types.js';

/** starknet_blockHashAndNumber: hash and number of the latest block. */
export function starknet_blockHashAndNumber(ctx: MethodContext): { block_hash: string; block_number: number } {
  const b = ctx.node.chain.latest;
  return { block_hash: toHex(b.hash), block_number: b.number };
}
