import type { CallContext } from '../families/FamilyHandler.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import { methodAllowed } from '../keys/restrictions/methodAllowed.js';
import { serializeResponse } from '../jsonrpc/serializeResponse.js';
import type { RpcResponse } from '../jsonrpc/types.js';
import type { Limiter } from '../limits/Limiter.js';
import type { Network } from '../network/createNetwork.js';
import type { UsageRecorder } from '../usage/UsageEvent.js';
import { wireError } from '../wire/wireError.js';
import type { RequestContext } from './RequestContext.js';
import type { RpcCall } from './RpcCall.js';
import { authenticate } from './stages/authenticate.js';
import type { CacheStage } from './stages/createCacheStage.js';
import { chargeCredits } from './stages/chargeCredits.js';
import { createLimitGuard } from './stages/createLimitGuard.js';
import { forwardCall, type KeyGate } from './stages/forwardCall.js';
import { prepareCalls } from './stages/prepareCalls.js';
import { recordUsage } from './stages/recordUsage.js';
import { refused } from './stages/refused.js';
import { restrictCaller } from './stages/restrictCaller.js';
import { restrictCalls } from './stages/restrictCalls.js';

const CACHE_HIT: Readonly<Record<string, string>> = Object.freeze({ 'x-cache': 'HIT' });
const CACHE_MISS: Readonly<Record<string, string>> = Object.freeze({ 'x-cache': 'MISS' });

/** The longest a held key's refusal waits before it is written. */
const HELD_PAUSE_MS = 1_000;

/** Resolves after `ms`, or at once when `signal` aborts (the client went away). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** What the request path is built from (the composition root passes them in). */
export interface RequestPathDeps {
  readonly keys: KeyAuthenticator;
  readonly limiter: Limiter;
  readonly gate: KeyGate;
  readonly usage: UsageRecorder;
  readonly maxBatch: number;
  /** The response cache around "forward" (absent: no cache). */
  readonly cache?: CacheStage | undefined;
}

/** What to write back for a JSON-RPC body: the HTTP status and the body (none for notifications only). */
export interface RpcReply {
  readonly status: number;
  readonly body: string | undefined;
  /** Headers a refusal carries (Retry-After). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Sends one call somewhere other than the network's upstreams (WebSocket subscriptions). */
export type SpecialForward = (call: RpcCall) => Promise<void> | undefined;

/**
 * The request path of nodegate, in one place. Every request, whatever its transport, goes
 * through the same named stages, in this order:
 *
 * ```
 * edge (src/edge/)         HTTP, WebSocket upgrade or IPFS; normalise the path; resolve network
 *                          (Host or prefix); build the RequestContext (id, deadline, abort signal)
 * authenticate             key (path or basic user) + secret and/or JWT when required      → 401
 * restrictions (caller)    origin and user-agent allowlists                                → 403
 * parse + validate         JSON-RPC envelope; params against the family's method table     → -32600/-32601/-32602
 * restrictions (calls)     method and contract allowlists (IPFS: command allowlist)        → 403 / -32002
 * limits                   a key held over its limits is refused at admission (no body
 *                          read; answered after a pause of up to its backoff, at most 1 s);
 *                          then credits against the per-second rate and the daily total,
 *                          a batch whole or not at all                                     → 429 / -32005
 * forward + normalise      a per-key upstream slot, then the network (failover inside),
 *                          then the answer in the client's shape
 * record usage             in memory, flushed off the hot path
 * wire (src/wire/)         JSON-RPC body, Kubo error, or refused upgrade
 * ```
 *
 * HTTP (`edge/serveJsonRpc.ts`), WebSocket (`edge/ws/serveWebSocket.ts`) and IPFS
 * (`edge/serveIpfs.ts`) call `admit` once per request, upgrade or command, then `answerRpc` for
 * each JSON-RPC body (IPFS: `admitCommand`, then its route, then `recordUsage`).
 *
 * @example
 * const path = createRequestPath({ keys, limiter, gate, usage, maxBatch: 100 });
 * await path.admit(ctx);                    // throws the 401/403 to write
 * const reply = await path.answerRpc(ctx, network, body);
 */
export function createRequestPath(deps: RequestPathDeps) {
  const { keys, limiter, gate, usage, maxBatch, cache } = deps;
  const guard = createLimitGuard();
  const callContexts = new WeakMap<Network, { http: CallContext; ws: CallContext }>();
  const callContextOf = (network: Network, transport: RequestContext['transport']): CallContext => {
    let pair = callContexts.get(network);
    if (!pair) {
      const dev = network.settings.dev;
      pair = { http: { transport: 'http', dev }, ws: { transport: 'ws', dev } };
      callContexts.set(network, pair);
    }
    return transport === 'ws' ? pair.ws : pair.http;
  };

  return {
    /** authenticate → restrictions (caller) → limits (a key already held over them). Throws the refusal to write. */
    async admit(ctx: RequestContext): Promise<void> {
      await authenticate(ctx, keys);
      let refusal: unknown;
      try {
        restrictCaller(ctx);
      } catch (err) {
        refusal = err;
      }
      const held = refusal === undefined ? guard.held(ctx) : undefined;
      if (held) {
        refusal = held.refusal;
        // a key that keeps sending while it is told to back off gets its answer after a pause
        // (its backoff, at most HELD_PAUSE_MS): a client ignoring Retry-After cannot make the
        // gateway spin for it at the other keys' expense
        await pause(Math.min(held.waitMs, HELD_PAUSE_MS), ctx.signal);
      }
      if (refusal !== undefined) {
        // the key is known: its usage shows what was refused and why (the body was not read)
        recordUsage(ctx, usage, outcome('(refused)', wireError(refusal).status, refusal, 0, undefined, 0, 0));
        throw refusal;
      }
    },

    /** An admitted IPFS command: restrictions (command allowlist) → limits. Throws the refusal. */
    async admitCommand(ctx: RequestContext, command: string, credits: number): Promise<void> {
      if (!methodAllowed(ctx.key!.record.settings, command)) throw refused('method');
      await chargeCredits(ctx, limiter, guard, credits);
    },

    /** A JSON-RPC body of an admitted request: parse → validate → restrictions → limits → forward → normalise → record usage. */
    async answerRpc(ctx: RequestContext, network: Network, body: string, special?: SpecialForward): Promise<RpcReply> {
      let prepared: ReturnType<typeof prepareCalls>;
      try {
        prepared = prepareCalls(body, network.family, callContextOf(network, ctx.transport), maxBatch);
      } catch (err) {
        const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: wireError(err).error });
        recordUsage(ctx, usage, outcome('(invalid)', 200, err, 0, undefined, body.length, text.length));
        return { status: 200, body: text, headers: {} };
      }
      const { batch, calls } = prepared;
      restrictCalls(ctx, calls);

      let status = 200;
      let headers: Readonly<Record<string, string>> = {};
      const billable: RpcCall[] = [];
      let credits = 0;
      for (const c of calls) {
        if (c.error !== undefined) continue;
        billable.push(c);
        credits += c.prepared!.policy.credits;
      }
      const forward = (c: RpcCall) =>
        special?.(c) ??
        (cache === undefined
          ? forwardCall(ctx, network, gate, c)
          : cache.around(network, c, () => forwardCall(ctx, network, gate, c)));
      try {
        await chargeCredits(ctx, limiter, guard, credits);
        for (const c of billable) c.credits = c.prepared!.policy.credits;
        // one call (the common case) is awaited as it is: no array of promises to gather, and
        // nothing to wait for when the cache answered it at once
        if (billable.length === 1) {
          const answering = forward(billable[0]!);
          if (answering !== undefined) await answering;
        } else if (billable.length > 1) await Promise.all(billable.map(forward));
      } catch (err) {
        const answer = wireError(err);
        status = answer.status;
        headers = answer.headers;
        for (const c of billable) c.error = err;
      }
      if (!batch && status === 200 && calls[0]!.error !== undefined) status = wireError(calls[0]!.error).status;
      // X-Cache: HIT when every call was answered from the cache
      if (cache !== undefined && billable.length > 0) {
        let hit = true;
        for (const c of billable) if (c.cache !== 'HIT') hit = false;
        headers =
          Object.keys(headers).length === 0
            ? hit
              ? CACHE_HIT
              : CACHE_MISS
            : { ...headers, 'x-cache': hit ? 'HIT' : 'MISS' };
      }
      // an answer (or a batch item) from a failover partner says so
      for (const c of billable) {
        if (c.failover === 'partner') {
          headers = { ...headers, 'x-nodegate-failover': 'partner' };
          break;
        }
      }
      if (status === 403 && batch) status = 200;

      const responses: string[] = [];
      for (const c of calls) {
        if (c.id === undefined) continue;
        const response: RpcResponse =
          c.error === undefined
            ? { jsonrpc: '2.0', id: c.id, result: c.result }
            : { jsonrpc: '2.0', id: c.id, error: wireError(c.error).error };
        responses.push(serializeResponse(response));
      }
      const text = responses.length === 0 ? undefined : batch ? `[${responses.join(',')}]` : responses[0];
      const share = calls.length > 1 ? 1 / calls.length : 1;
      const outLength = text?.length ?? 0;
      for (const c of calls) {
        recordUsage(
          ctx,
          usage,
          outcome(c.method, status, c.error, c.credits, c.upstream, body.length * share, outLength * share, c.failover),
        );
      }
      return { status, body: text, headers };
    },

    /** Stage "record usage" for transports that answer themselves (IPFS, subscription events). */
    recordUsage: (ctx: RequestContext, o: Parameters<typeof recordUsage>[2]) => recordUsage(ctx, usage, o),
  };
}

/** The request path built by {@link createRequestPath}. */
export type RequestPath = ReturnType<typeof createRequestPath>;

function outcome(
  method: string,
  status: number,
  error: unknown,
  credits: number,
  upstream: string | undefined,
  bytesIn: number,
  bytesOut: number,
  failover?: 'partner' | undefined,
) {
  return {
    method,
    status,
    error,
    credits,
    upstream,
    failover,
    bytesIn: Math.round(bytesIn),
    bytesOut: Math.round(bytesOut),
  };
}
