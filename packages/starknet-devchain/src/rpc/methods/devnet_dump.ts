import { encodeJson } from '../../chain/codec.js';
import { invalidParams } from '../../errors.js';
import type { MethodContext, Params } from '../types.js';

/** devnet_dump: write the chain records to `path` (returns null), or return them when no path is given. */
export function devnet_dump(ctx: MethodContext, p: Params): unknown {
  if (p.path !== undefined && typeof p.path !== 'string') throw invalidParams('path: expected a string');
  if (typeof p.path === 'string' && p.path !== '') {
    ctx.node.dump(p.path);
    return null;
  }
  return JSON.parse(encodeJson(ctx.node.dump()));
}
