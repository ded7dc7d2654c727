import { GatewayError } from '../../errors/GatewayError.js';
import { toWireError } from '../../errors/toWireError.js';
import type { UsageRecorder } from '../../usage/UsageEvent.js';
import type { RequestContext } from '../RequestContext.js';
import type { RpcCall } from '../RpcCall.js';

/** What the network and the cache say of a call's answer (an `RpcCall` is one). */
export type CallFacts = Pick<RpcCall, 'failover' | 'attempts' | 'cache' | 'multiplexed' | 'split'>;

/**
 * Stage "record usage" for one finished call or command, its outcome passed as it is (no outcome
 * object is made for it; `facts` may be the call itself): the one usage event is built here and
 * handed to the recorder. See `recordUsage` for what is recorded.
 *
 * @example
 * recordCall(ctx, usage, 'eth_call', 200, undefined, 80, 'anvil', 120, 66, call);
 */
export function recordCall(
  ctx: RequestContext,
  usage: UsageRecorder,
  method: string,
  status: number,
  error: unknown,
  credits: number,
  upstream: string | undefined,
  bytesIn: number,
  bytesOut: number,
  facts: CallFacts | undefined,
): void {
  const key = ctx.key;
  if (key === undefined) return;
  let errorCode: number | undefined;
  let refusal: string | undefined;
  if (error !== undefined) {
    // IPFS answers are Kubo's, not JSON-RPC: their code is the negated HTTP status they carry
    errorCode =
      ctx.transport === 'ipfs'
        ? -(error instanceof GatewayError ? error.httpStatus : status)
        : toWireError(error).error.code;
    if (error instanceof GatewayError) refusal = error.refusal;
  }
  const record = key.record;
  usage.record({
    key: record.key,
    accountId: record.accountId,
    network: ctx.network,
    method,
    transport: ctx.transport,
    status,
    errorCode,
    refusal,
    credits,
    latencyMs: Date.now() - ctx.startedAt,
    bytesIn,
    bytesOut,
    upstream,
    failover: facts?.failover,
    attempts: facts?.attempts,
    cache: facts?.cache,
    multiplexed: facts?.multiplexed,
    split: facts?.split,
    at: ctx.startedAt,
    requestId: ctx.requestId,
  });
}
