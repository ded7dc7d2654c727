import { invalidParams } from '../../errors.js';
import type { MethodContext, Params } from '../types.js';

/** devnet_load: replace the chain by a dump written with devnet_dump. */
export function devnet_load(ctx: MethodContext, p: Params): null {
  if (typeof p.path !== 'string' || p.path === '') throw invalidParams('path: expected a file path');
  ctx.node.load(p.path);
  return null;
}
