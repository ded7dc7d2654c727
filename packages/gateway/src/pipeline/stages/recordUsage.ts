import { GatewayError } from '../../errors/GatewayError.js';
import { toWireError } from '../../errors/toWireError.js';
import type { UsageRecorder } from '../../usage/UsageEvent.js';
import type { RequestContext } from '../RequestContext.js';

/** What one finished call or command reports. */
export interface UsageOutcome {
  readonly method: string;
  readonly status: number;
  /** The call's error, when it failed or was refused. */
  readonly error: unknown;
  readonly credits: number;
  readonly upstream: string | undefined;
  readonly failover?: 'partner' | undefined;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/**
 * Stage "record usage": hands one outcome to the usage recorder (in memory; flushed off the
 * hot path). Refusals are recorded too, with the rule or limit that refused them, so the
 * request explorer can say why.
 *
 * @example
 * recordUsage(ctx, usage, { method: 'eth_call', status: 200, error: undefined, credits: 80, upstream: 'anvil', bytesIn: 120, bytesOut: 66 });
 */
export function recordUsage(ctx: RequestContext, usage: UsageRecorder, outcome: UsageOutcome): void {
  const key = ctx.key;
  if (key === undefined) return;
  let errorCode: number | undefined;
  let refusal: string | undefined;
  if (outcome.error !== undefined) {
    errorCode = toWireError(outcome.error).error.code;
    if (outcome.error instanceof GatewayError) refusal = outcome.error.refusal;
  }
  usage.record({
    key: key.record.key,
    accountId: key.record.accountId,
    network: ctx.network,
    method: outcome.method,
    transport: ctx.transport,
    status: outcome.status,
    errorCode,
    refusal,
    credits: outcome.credits,
    latencyMs: Date.now() - ctx.startedAt,
    bytesIn: outcome.bytesIn,
    bytesOut: outcome.bytesOut,
    upstream: outcome.upstream,
    failover: outcome.failover,
    at: ctx.startedAt,
    requestId: ctx.requestId,
  });
}
