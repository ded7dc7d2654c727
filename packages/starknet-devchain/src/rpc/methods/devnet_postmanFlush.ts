import { invalidParams } from '../../errors.js';
import type { FlushResult } from '../../messaging/Postman.js';
import type { MethodContext, Params } from '../types.js';

/**
 * devnet_postmanFlush: messages sent on L1 since the last flush become L1_HANDLER transactions, then the L2 → L1
 * messages of the blocks mined since are made consumable on L1. `dry_run: true` sends and reads nothing on L1.
 */
export function devnet_postmanFlush(ctx: MethodContext, p: Params): Promise<FlushResult> {
  const dryRun = p.dry_run ?? false;
  if (typeof dryRun !== 'boolean') throw invalidParams('dry_run: expected a boolean');
  return ctx.node.postman.flush(dryRun);
}
