import type { UsageRecorder } from '../../usage/UsageEvent.js';
import type { RequestContext } from '../RequestContext.js';
import { recordCall } from './recordCall.js';

/** What one finished call or command reports. */
export interface UsageOutcome {
  readonly method: string;
  readonly status: number;
  /** The call's error, when it failed or was refused. */
  readonly error: unknown;
  readonly credits: number;
  readonly upstream: string | undefined;
  readonly failover?: 'partner' | undefined;
  /** What the network and the cache say of the answer (`RpcCall.attempts`, `cache`, `multiplexed`, `split`). */
  readonly attempts?: number | undefined;
  readonly cache?: 'HIT' | 'MISS' | undefined;
  readonly multiplexed?: true | undefined;
  readonly split?: number | undefined;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/**
 * Stage "record usage": hands one outcome to the usage recorder (in memory; flushed off the
 * hot path). Refusals are recorded too, with the rule or limit that refused them, so the
 * request explorer can say why. An IPFS failure's error code is its HTTP status, negated (-404,
 * -413, -429: Kubo's answers have no JSON-RPC code).
 *
 * @example
 * recordUsage(ctx, usage, { method: 'eth_call', status: 200, error: undefined, credits: 80, upstream: 'anvil', bytesIn: 120, bytesOut: 66 });
 */
export function recordUsage(ctx: RequestContext, usage: UsageRecorder, outcome: UsageOutcome): void {
  recordCall(
    ctx,
    usage,
    outcome.method,
    outcome.status,
    outcome.error,
    outcome.credits,
    outcome.upstream,
    outcome.bytesIn,
    outcome.bytesOut,
    outcome,
  );
}
