import { invalidParams } from '../../errors.js';
import type { MethodContext, Params } from '../types.js';

/**
 * devnet_dump: write the chain records to `path` (returns null; `devnet_load` reads that file), or
 * return them inline for inspection, with numbers as 0x hex strings.
 */
export function devnet_dump(ctx: MethodContext, p: Params): unknown {
  if (p.path !== undefined && typeof p.path !== 'string') throw invalidParams('path: expected a string');
  if (typeof p.path === 'string' && p.path !== '') {
    ctx.node.dump(p.path);
    return null;
  }
  return JSON.parse(JSON.stringify(ctx.node.dump(), (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
}
