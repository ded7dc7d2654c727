import type { Network } from '../../network/createNetwork.js';
import type { LogsCaps } from '../../network/types.js';
import type { RequestContext } from '../RequestContext.js';

/**
 * The caller's `eth_getLogs` caps: its plan's `maxLogsBlockRange` / `maxLogsResults`, else the
 * network's. (eth_getLogs answers are never cached, so the split layer, which reads them in
 * `ForwardOptions.logs`, holds every answer to them.)
 *
 * @example
 * network.forward('eth_getLogs', params, traits, raw, signal, { logs: logsCaps(ctx, network) });
 */
export function logsCaps(ctx: RequestContext, network: Network): LogsCaps {
  const plan = ctx.key!.plan;
  return {
    maxBlockRange: plan.maxLogsBlockRange ?? network.settings.maxLogsBlockRange,
    maxResults: plan.maxLogsResults ?? network.settings.maxLogsResults,
  };
}
