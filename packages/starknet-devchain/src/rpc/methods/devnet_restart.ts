import type { MethodContext } from '../types.js';

/** devnet_restart: back to genesis (the data directory is reset too). */
export function devnet_restart(ctx: MethodContext): null {
  ctx.node.restart();
  return null;
}
