import { GatewayError } from '../../errors/GatewayError.js';
import type { Network } from '../../network/createNetwork.js';
import type { RequestContext } from '../RequestContext.js';
import type { RpcCall } from '../RpcCall.js';

/** A per-key cap on upstream requests in flight (see `limits/createKeyGate.ts`). */
export interface KeyGate {
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  tryAcquire(key: string): (() => void) | undefined;
}

/**
 * Stages "forward" and "normalise" for one call: waits for one of the key's upstream slots (so
 * one key's flood cannot take every upstream connection from the others), sends the call to
 * the network (failover inside), releases the slot, and finishes the upstream's answer into
 * the client's shape. A failure is set on the call (it becomes that call's JSON-RPC error).
 *
 * @example
 * await forwardCall(ctx, network, gate, call);
 */
export async function forwardCall(ctx: RequestContext, network: Network, gate: KeyGate, call: RpcCall): Promise<void> {
  const prepared = call.prepared!;
  let release: (() => void) | undefined;
  try {
    release =
      gate.tryAcquire(ctx.key!.record.key) ??
      (await gate.acquire(ctx.key!.record.key, ctx.signal).catch((err: unknown) => {
        if (ctx.signal.aborted) throw err;
        throw new GatewayError('RATE_LIMITED', (err as Error).message, {
          refusal: 'concurrency',
          retryAfterSeconds: 1,
        });
      }));
    // failover protection: the key's plan includes it and the request asked for it
    // (asked by the request's Enable-Failover header or by the key's enableFailover setting)
    const partners =
      (ctx.enableFailover || ctx.key!.record.settings.enableFailover) && ctx.key!.plan.failoverProtection;
    const { result, upstream, failover } = await network.forward(
      prepared.upstreamMethod,
      prepared.upstreamParams,
      prepared.policy,
      prepared.finish === undefined,
      ctx.signal,
      { deadline: ctx.deadline, partners, requestId: ctx.requestId },
    );
    call.upstream = upstream;
    if (failover) call.failover = failover;
    call.result = prepared.finish ? prepared.finish(result) : result;
  } catch (err) {
    call.error = err;
    const upstream = (err as { upstream?: unknown }).upstream;
    if (typeof upstream === 'string') call.upstream = upstream;
  } finally {
    release?.();
  }
}
