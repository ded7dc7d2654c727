import type { EthFilters } from '../../families/eth/filters/createEthFilters.js';
import type { Forwarded, Network } from '../../network/createNetwork.js';
import type { RequestContext } from '../RequestContext.js';
import type { RpcCall } from '../RpcCall.js';
import { acquireKeySlot } from './acquireKeySlot.js';
import { logsCaps } from './logsCaps.js';

/** A per-key cap on upstream requests in flight (see `limits/createKeyGate.ts`). */
export interface KeyGate {
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  tryAcquire(key: string): (() => void) | undefined;
}

/**
 * Stages "forward" and "normalise" for one call: waits for one of the key's upstream slots (so
 * one key's flood cannot take every upstream connection from the others), sends the call to
 * the network (failover inside), releases the slot, and finishes the upstream's answer into
 * the client's shape. Filter methods (rows with `filter`) go to `filters`, which keeps each
 * filter's key and upstream. A failure is set on the call (it becomes that call's JSON-RPC error).
 *
 * @example
 * await forwardCall(ctx, network, gate, call, filters);
 */
export async function forwardCall(
  ctx: RequestContext,
  network: Network,
  gate: KeyGate,
  call: RpcCall,
  filters: Pick<EthFilters, 'forward'>,
): Promise<void> {
  const prepared = call.prepared!;
  let release: (() => void) | undefined;
  try {
    // the common case costs no promise: a free slot is taken at once
    release = gate.tryAcquire(ctx.key!.record.key) ?? (await acquireKeySlot(gate, ctx.key!.record.key, ctx.signal));
    // failover protection: the key's plan includes it and the request asked for it
    // (asked by the request's Enable-Failover header or by the key's enableFailover setting)
    const partners =
      (ctx.enableFailover || ctx.key!.record.settings.enableFailover) && ctx.key!.plan.failoverProtection;
    // a filter method goes through the gateway's filter registry (the key's own filters only)
    const forwarded =
      prepared.policy.filter !== undefined
        ? await filters.forward(ctx, network, prepared, prepared.finish === undefined)
        : await network.forward(
            prepared.upstreamMethod,
            prepared.upstreamParams,
            prepared.policy,
            prepared.finish === undefined,
            ctx.signal,
            prepared.upstreamMethod === 'eth_getLogs' || prepared.upstreamMethod === 'starknet_getEvents'
              ? { deadline: ctx.deadline, partners, requestId: ctx.requestId, logs: logsCaps(ctx, network) }
              : { deadline: ctx.deadline, partners, requestId: ctx.requestId },
          );
    call.upstream = forwarded.upstream;
    if (forwarded.failover) call.failover = forwarded.failover;
    // what the network's layers say of the answer (a filter's answer says none of it)
    const facts = forwarded as Pick<Forwarded, 'attempts' | 'multiplexed' | 'split'>;
    if (facts.attempts !== undefined) call.attempts = facts.attempts;
    if (facts.multiplexed) call.multiplexed = true;
    if (facts.split !== undefined) call.split = facts.split;
    call.result = prepared.finish ? prepared.finish(forwarded.result) : forwarded.result;
  } catch (err) {
    call.error = err;
    const upstream = (err as { upstream?: unknown }).upstream;
    if (typeof upstream === 'string') call.upstream = upstream;
    const attempts = (err as { attempts?: unknown }).attempts;
    if (typeof attempts === 'number') call.attempts = attempts;
  } finally {
    release?.();
  }
}
