import { toHex } from '../../felt.js';
import type { MethodContext } from '../types.js';

/** starknet_chainId: the chain id as a felt. */
export function starknet_chainId(ctx: MethodContext): string {
  return toHex(ctx.node.chain.config.chainId);
}
