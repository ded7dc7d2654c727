import { contractsAllowed } from '../../keys/restrictions/contractsAllowed.js';
import { methodAllowed } from '../../keys/restrictions/methodAllowed.js';
import type { RequestContext } from '../RequestContext.js';
import type { RpcCall } from '../RpcCall.js';
import { refused } from './refused.js';

/**
 * Stage "restrictions" (what is called): each valid call against the key's method and contract
 * allowlists. The contracts a call names come from its method row (`contracts`), not from
 * name checks here. A refused call gets the 403 `-32002` error; the others go on.
 *
 * @example
 * restrictCalls(ctx, calls);
 */
export function restrictCalls(ctx: RequestContext, calls: readonly RpcCall[]): void {
  const settings = ctx.key!.record.settings;
  const unrestricted = settings.allowedMethods.length === 0 && settings.allowedContracts.length === 0;
  if (unrestricted) return;
  for (const call of calls) {
    if (call.error !== undefined || call.prepared === undefined) continue;
    if (!methodAllowed(settings, call.method)) {
      call.error = refused('method');
      continue;
    }
    const named = call.prepared.policy.contracts?.(call.prepared.upstreamParams);
    if (!contractsAllowed(settings, named)) call.error = refused('contract');
  }
}
