import { originAllowed } from '../../keys/restrictions/originAllowed.js';
import { userAgentAllowed } from '../../keys/restrictions/userAgentAllowed.js';
import type { RequestContext } from '../RequestContext.js';
import { refused } from './refused.js';

/**
 * Stage "restrictions" (who is calling): the key's origin and user-agent allowlists, checked
 * once per HTTP request, WebSocket upgrade or IPFS call. Throws the 403 `-32002` refusal.
 *
 * @example
 * restrictCaller(ctx); // throws when ctx.origin is not on the key's allowlist
 */
export function restrictCaller(ctx: RequestContext): void {
  const settings = ctx.key!.record.settings;
  if (!originAllowed(settings, ctx.origin)) throw refused('origin');
  if (!userAgentAllowed(settings, ctx.userAgent)) throw refused('user-agent');
}
