import type { Logger } from '../log/createLogger.js';
import type { Member } from './members/createMember.js';
import type { NetworkCall } from './types.js';

/**
 * Logs a failover inside one request: the upstream tried first failed (`reason`) and another
 * (or a partner) answered. Names upstreams, never their URLs.
 *
 * @example
 * logFailover(log, 'mainnet', call, first, by, 'upstream answered HTTP 502');
 */
export function logFailover(
  log: Logger | undefined,
  network: string,
  call: NetworkCall,
  from: Member,
  to: Member,
  reason: string | undefined,
  partner = false,
): void {
  log?.warn(partner ? 'answered by a failover partner' : 'upstream failover within a request', {
    network,
    method: call.method,
    from: from.upstream.name,
    to: to.upstream.name,
    ...(reason === undefined ? {} : { reason }),
    ...(call.options?.requestId === undefined ? {} : { requestId: call.options.requestId }),
  });
}
