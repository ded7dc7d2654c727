import type { EthFilters } from '../families/eth/filters/createEthFilters.js';
import type { CallContext } from '../families/FamilyHandler.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import { methodAllowed } from '../keys/restrictions/methodAllowed.js';
import { answerHead } from '../jsonrpc/answerHead.js';
import { RawJson } from '../jsonrpc/RawJson.js';
import { serializeResponse, serializeResult } from '../jsonrpc/serializeResponse.js';
import type { RpcResponse } from '../jsonrpc/types.js';
import type { Limiter } from '../limits/Limiter.js';
import type { Network } from '../network/createNetwork.js';
import type { UsageRecorder } from '../usage/UsageEvent.js';
import { wireError } from '../wire/wireError.js';
import type { RequestContext, TenantKey } from './RequestContext.js';
import type { RpcCall } from './RpcCall.js';
import { admitKey } from './stages/admitKey.js';
import { authenticate } from './stages/authenticate.js';
import type { CacheForward, CacheStage } from './stages/createCacheStage.js';
import { chargeCredits, INVALID_CALL_CREDITS } from './stages/chargeCredits.js';
import { createLimitGuard } from './stages/createLimitGuard.js';
import { diagnosticHeaders } from './stages/diagnosticHeaders.js';
import { acquireKeySlot } from './stages/acquireKeySlot.js';
import { forwardCall, type KeyGate } from './stages/forwardCall.js';
import { prepareCalls } from './stages/prepareCalls.js';
import { recordCall } from './stages/recordCall.js';
import { recordUsage } from './stages/recordUsage.js';
import { refused } from './stages/refused.js';
import { restrictCaller } from './stages/restrictCaller.js';
import { restrictCalls } from './stages/restrictCalls.js';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const CACHE_HIT: Readonly<Record<string, string>> = Object.freeze({ 'x-cache': 'HIT' });
const CACHE_MISS: Readonly<Record<string, string>> = Object.freeze({ 'x-cache': 'MISS' });
const isEmpty = (headers: Readonly<Record<string, string>>) => {
  for (const _ in headers) return false;
  return true;
};

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
  /**
   * Credits an invalid or unknown call costs (parse error, invalid request, unknown method or
   * IPFS command, invalid params): `limits.invalidCallCredits`, default {@link INVALID_CALL_CREDITS}.
   */
  readonly invalidCallCredits?: number | undefined;
  /** The response cache around "forward" (absent: no cache). */
  readonly cache?: CacheStage | undefined;
  /** The gateway's eth filter registry: filter methods go there, never straight upstream. */
  readonly filters: Pick<EthFilters, 'forward'>;
}

/** What to write back for a JSON-RPC body: the HTTP status and the body (none for notifications only). */
export interface RpcReply {
  readonly status: number;
  readonly body: string | undefined;
  /** Headers a refusal carries (Retry-After). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A single call's answer whose result is at hand as UTF-8 bytes (a cache hit): written as `head`
 * (`{"jsonrpc":"2.0","id":…,"result":`), then `result`, then `}`, with nothing re-serialised.
 */
export interface PreparedAnswer {
  readonly head: string;
  readonly result: Uint8Array;
}

/** What to write back for an HTTP JSON-RPC body: a {@link RpcReply}, whose body may be a {@link PreparedAnswer}. */
export interface HttpRpcReply {
  readonly status: number;
  readonly body: string | PreparedAnswer | undefined;
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
 *                          then the answer in the client's shape; eth filter methods go
 *                          to the filter registry (the key's own filters, each on the
 *                          upstream that holds it: families/eth/filters/)
 * record usage             in memory, flushed off the hot path
 * wire (src/wire/)         JSON-RPC body, Kubo error, or refused upgrade
 * ```
 *
 * HTTP (`edge/serveJsonRpc.ts`), WebSocket (`edge/ws/serveWebSocket.ts`) and IPFS
 * (`edge/serveIpfs.ts`) call `admit` once per request, upgrade or command, then `answerRpc` for
 * each JSON-RPC body (HTTP: `answerHttp`, the same answer, a cache hit's bytes as they are) (IPFS: `admitCommand`, then its route, then `recordUsage`; a dedicated
 * gateway, `edge/serveIpfsGateway.ts`: `admitGateway`, then its content, then `recordUsage`). A WebSocket
 * connection calls `readmit` before each message and when its key changes (`onKeyChange`), and
 * waits out `heldPauseMs` before a message of a key held over its limits.
 *
 * @example
 * const path = createRequestPath({ keys, limiter, gate, usage, maxBatch: 100, filters });
 * await path.admit(ctx);                    // throws the 401/403 to write
 * const reply = await path.answerRpc(ctx, network, body);
 */
export function createRequestPath(deps: RequestPathDeps) {
  const { keys, limiter, gate, usage, maxBatch, cache, filters } = deps;
  const invalidCost = deps.invalidCallCredits ?? INVALID_CALL_CREDITS;
  const guard = createLimitGuard();
  const callContexts = new WeakMap<Network, { http: CallContext; ws: CallContext }>();
  /** "forward", as the cache stage runs it on a miss (bound once, not per call). */
  const forwardThrough: CacheForward = (ctx, network, call) => forwardCall(ctx, network, gate, call, filters);
  const forward = (ctx: RequestContext, network: Network, call: RpcCall, special: SpecialForward | undefined) =>
    special?.(call) ??
    (cache === undefined ? forwardThrough(ctx, network, call) : cache.around(ctx, network, call, forwardThrough));

  /**
   * parse → validate → restrictions → limits → forward → normalise → record usage, for one body.
   * With `prepared`, a single call answered with its result's bytes comes back as a
   * {@link PreparedAnswer}.
   */
  const answer = (
    ctx: RequestContext,
    network: Network,
    body: string,
    special: SpecialForward | undefined,
    prepared: boolean,
  ): Promise<HttpRpcReply> => {
    let parsed: ReturnType<typeof prepareCalls>;
    try {
      parsed = prepareCalls(body, network.family, callContextOf(network, ctx.transport), maxBatch);
    } catch (err) {
      return answerInvalid(ctx, body, err);
    }
    return parsed.batch
      ? answerBatch(ctx, network, body, parsed.calls, special)
      : answerOne(ctx, network, body, parsed.calls, special, prepared);
  };

  /** A body that is not a request: it still costs what an invalid call does (over the key's limits, the limit's refusal instead). */
  const answerInvalid = async (ctx: RequestContext, body: string, err: unknown): Promise<HttpRpcReply> => {
    let answer = err;
    let charged = 0;
    try {
      await chargeCredits(ctx, limiter, guard, invalidCost);
      charged = invalidCost;
    } catch (refusal) {
      answer = refusal;
    }
    const wire = wireError(answer);
    const status = answer === err ? 200 : wire.status;
    const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: wire.error });
    recordCall(ctx, usage, '(invalid)', status, answer, charged, undefined, body.length, text.length, undefined);
    return { status, body: text, headers: answer === err ? NO_HEADERS : wire.headers };
  };

  /**
   * A body of one call (the common case), the same stages as a batch of one without the batch's
   * lists: charged (invalid: what an invalid call costs; refused by the key's rules: nothing),
   * forwarded, answered, recorded.
   */
  const answerOne = async (
    ctx: RequestContext,
    network: Network,
    body: string,
    /** The body's one call. */
    calls: RpcCall[],
    special: SpecialForward | undefined,
    prepared: boolean,
  ): Promise<HttpRpcReply> => {
    const call = calls[0]!;
    // a call the family refused (invalid request, unknown method, invalid params) is charged too
    const invalid = call.error !== undefined;
    if (!invalid) restrictCalls(ctx, calls);
    const billable = call.error === undefined;
    const credits = invalid ? invalidCost : billable ? call.prepared!.policy.credits : 0;
    let status = 200;
    let headers = NO_HEADERS;
    let charged = false;
    try {
      // admitted at once (the common case): nothing awaited
      const charging = chargeCredits(ctx, limiter, guard, credits);
      if (charging !== undefined) await charging;
      charged = true;
      call.credits = credits;
      if (billable) {
        const answering = forward(ctx, network, call, special);
        if (answering !== undefined) await answering;
      }
    } catch (err) {
      const refusal = wireError(err);
      status = refusal.status;
      headers = refusal.headers;
      // refused by the limits: the call gets the refusal (nothing was charged)
      if (billable || !charged) call.error = err;
    }
    if (status === 200 && call.error !== undefined) status = wireError(call.error).status;
    if (billable) {
      // X-Cache: HIT when the cache answered it
      if (cache !== undefined) {
        const hit = call.cache === 'HIT';
        headers = isEmpty(headers) ? (hit ? CACHE_HIT : CACHE_MISS) : { ...headers, 'x-cache': hit ? 'HIT' : 'MISS' };
      }
      // an answer from a failover partner says so
      if (call.failover === 'partner') headers = { ...headers, 'x-nodegate-failover': 'partner' };
      // X-Nodegate-Upstream, -Attempts, -Cache, -Multiplexed, -Split (policy.diagnosticHeaders)
      if (network.settings.policy.diagnosticHeaders) headers = diagnosticHeaders(calls, cache !== undefined, headers);
    }
    let text: string | PreparedAnswer | undefined;
    let outLength = 0;
    if (call.id !== undefined) {
      const result = call.result;
      if (call.error !== undefined) {
        text = serializeResponse({ jsonrpc: '2.0', id: call.id, error: wireError(call.error).error });
        outLength = text.length;
      } else if (prepared && result instanceof RawJson && result.bytes !== undefined) {
        // the cache's bytes, written as they are: nothing re-serialised or encoded
        const head = answerHead(call.id);
        text = { head, result: result.bytes };
        outLength = head.length + result.bytes.byteLength + 1;
      } else {
        text = serializeResult(call.id, result);
        outLength = text.length;
      }
    }
    recordCall(ctx, usage, call.method, status, call.error, call.credits, call.upstream, body.length, outLength, call);
    return { status, body: text, headers };
  };

  /** A batch: charged whole or refused whole, its calls forwarded together, answered in order. */
  const answerBatch = async (
    ctx: RequestContext,
    network: Network,
    body: string,
    calls: RpcCall[],
    special: SpecialForward | undefined,
  ): Promise<HttpRpcReply> => {
    // calls the family refused (invalid request, unknown method, invalid params): charged too
    const invalid: RpcCall[] = [];
    for (const c of calls) if (c.error !== undefined) invalid.push(c);
    restrictCalls(ctx, calls);

    let status = 200;
    let headers: Readonly<Record<string, string>> = NO_HEADERS;
    const billable: RpcCall[] = [];
    let credits = invalid.length * invalidCost;
    for (const c of calls) {
      if (c.error !== undefined) continue;
      billable.push(c);
      credits += c.prepared!.policy.credits;
    }
    let charged = false;
    try {
      await chargeCredits(ctx, limiter, guard, credits);
      charged = true;
      for (const c of billable) c.credits = c.prepared!.policy.credits;
      for (const c of invalid) c.credits = invalidCost;
      if (billable.length > 0) await Promise.all(billable.map((c) => forward(ctx, network, c, special)));
    } catch (err) {
      const answer = wireError(err);
      status = answer.status;
      headers = answer.headers;
      for (const c of billable) c.error = err;
      // refused by the limits: every call of the body gets the refusal (nothing was charged)
      if (!charged) for (const c of invalid) c.error = err;
    }
    // X-Cache: HIT when every call was answered from the cache
    if (cache !== undefined && billable.length > 0) {
      let hit = true;
      for (const c of billable) if (c.cache !== 'HIT') hit = false;
      headers = isEmpty(headers) ? (hit ? CACHE_HIT : CACHE_MISS) : { ...headers, 'x-cache': hit ? 'HIT' : 'MISS' };
    }
    // a batch item from a failover partner says so
    for (const c of billable) {
      if (c.failover === 'partner') {
        headers = { ...headers, 'x-nodegate-failover': 'partner' };
        break;
      }
    }
    // X-Nodegate-Upstream, -Attempts, -Cache, -Multiplexed, -Split (policy.diagnosticHeaders)
    if (billable.length > 0 && network.settings.policy.diagnosticHeaders)
      headers = diagnosticHeaders(billable, cache !== undefined, headers);
    // a batch is answered 200 with each item's error (a refusal by the key's rules too)
    if (status === 403) status = 200;

    const responses: string[] = [];
    for (const c of calls) {
      if (c.id === undefined) continue;
      const response: RpcResponse =
        c.error === undefined
          ? { jsonrpc: '2.0', id: c.id, result: c.result }
          : { jsonrpc: '2.0', id: c.id, error: wireError(c.error).error };
      responses.push(serializeResponse(response));
    }
    const text = responses.length === 0 ? undefined : `[${responses.join(',')}]`;
    const share = 1 / calls.length;
    const bytesIn = Math.round(body.length * share);
    const bytesOut = Math.round((text?.length ?? 0) * share);
    for (const c of calls) {
      recordCall(ctx, usage, c.method, status, c.error, c.credits, c.upstream, bytesIn, bytesOut, c);
    }
    return { status, body: text, headers };
  };
  /** `admit` for a key the authenticator has to look up (or a JWT to verify). */
  const admitLater = async (ctx: RequestContext): Promise<void> => {
    const verifying = admitKey(ctx, await keys.authenticate(ctx.credentials.key));
    if (verifying !== undefined) await verifying;
    const rest = admitCaller(ctx);
    if (rest !== undefined) await rest;
  };

  /** Restrictions (caller) → limits (a key held over them) for an authenticated request; undefined when admitted. */
  const admitCaller = (ctx: RequestContext): Promise<void> | undefined => {
    let refusal: unknown;
    try {
      restrictCaller(ctx);
    } catch (err) {
      refusal = err;
    }
    const held = refusal === undefined ? guard.held(ctx) : undefined;
    if (held) return refuseHeld(ctx, held.refusal, held.waitMs);
    if (refusal !== undefined) refuseAdmission(ctx, refusal);
    return undefined;
  };

  /**
   * A key that keeps sending while it is told to back off gets its answer after a pause (its
   * backoff, at most HELD_PAUSE_MS): a client ignoring Retry-After cannot make the gateway spin
   * for it at the other keys' expense.
   */
  const refuseHeld = async (ctx: RequestContext, refusal: unknown, waitMs: number): Promise<void> => {
    await pause(Math.min(waitMs, HELD_PAUSE_MS), ctx.signal);
    refuseAdmission(ctx, refusal);
  };

  /** The key is known: its usage shows what was refused and why (the body was not read). */
  const refuseAdmission = (ctx: RequestContext, refusal: unknown): never => {
    recordCall(ctx, usage, '(refused)', wireError(refusal).status, refusal, 0, undefined, 0, 0, undefined);
    throw refusal;
  };

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
    /**
     * authenticate → restrictions (caller) → limits (a key already held over them). Throws (or
     * rejects with) the refusal to write; undefined when admitted at once (a key the
     * authenticator decided lately: no promise at all).
     */
    admit(ctx: RequestContext): Promise<void> | undefined {
      // stage "authenticate": a key decided lately comes from the authenticator's cache at once
      const known = keys.peek(ctx.credentials.key);
      if (known === undefined) return admitLater(ctx);
      const verifying = admitKey(ctx, known.tenant);
      return verifying === undefined ? admitCaller(ctx) : verifying.then(() => admitCaller(ctx));
    },

    /**
     * A message on an open connection (WebSocket): the key read again (from the authenticator's
     * cache: a revocation or a settings change reaches it through `forget`), and when its record
     * changed, its credentials (secret, JWT) and caller restrictions checked again against the
     * current settings, and so are the method and contract allowlists for the calls the
     * connection still holds open (its subscribe calls); `ctx.key` becomes the current record.
     * Throws the 401/403 refusal.
     */
    async readmit(ctx: RequestContext, open: Iterable<RpcCall> = []): Promise<void> {
      const current = await keys.authenticate(ctx.credentials.key);
      if (current !== undefined && current === ctx.key) return;
      await authenticate(ctx, keys);
      restrictCaller(ctx);
      const probes = Array.from(open, (c) => ({ ...c, error: undefined }));
      restrictCalls(ctx, probes);
      for (const p of probes) if (p.error !== undefined) throw p.error;
    },

    /**
     * How long a message of a key held over its limits waits before it is handled (its backoff,
     * at most the pause a held HTTP request gets), or undefined when the key is not held.
     */
    heldPauseMs(ctx: RequestContext): number | undefined {
      const held = guard.held(ctx);
      return held === undefined ? undefined : Math.min(held.waitMs, HELD_PAUSE_MS);
    },

    /** Calls `listener` when a key changes (its id), or when every key may have (`undefined`). Returns the unsubscribe. */
    onKeyChange: (listener: (key: string | undefined) => void): (() => void) => keys.onChange(listener),

    /**
     * A dedicated IPFS gateway's request (`edge/serveIpfsGateway.ts`): no API key is sent, the
     * gateway's account is the tenant (`tenant`: the gateway as its own limiter key, on its
     * account's plan). limits: a gateway held over them is refused at admission (after the same
     * pause as a held key), then `credits` are charged → 429. Throws the refusal.
     */
    async admitGateway(ctx: RequestContext, tenant: TenantKey, credits: number): Promise<void> {
      ctx.key = tenant;
      const held = guard.held(ctx);
      if (held) {
        await pause(Math.min(held.waitMs, HELD_PAUSE_MS), ctx.signal);
        throw held.refusal;
      }
      await chargeCredits(ctx, limiter, guard, credits);
    },

    /**
     * Stage "slot" for an admitted IPFS command: one of its key's slots (the same per-key cap as
     * its JSON-RPC calls: `limits.maxConcurrentPerKey` in flight, `maxQueuedPerKey` waiting),
     * held until the answer ends, so one key's streams cannot take every connection to the node.
     * Resolves with the release; throws the 429 when the line is full, or the signal's reason.
     */
    holdSlot(ctx: RequestContext): Promise<() => void> {
      return acquireKeySlot(gate, ctx.key!.record.key, ctx.signal);
    },

    /**
     * An admitted IPFS command: restrictions (command allowlist) → limits. An unknown command
     * (`undefined`) costs what an invalid call does. Resolves with the credits charged; throws
     * the refusal.
     */
    async admitCommand(ctx: RequestContext, command: string | undefined, credits: number): Promise<number> {
      if (command === undefined) {
        await chargeCredits(ctx, limiter, guard, invalidCost);
        return invalidCost;
      }
      if (!methodAllowed(ctx.key!.record.settings, command)) throw refused('method');
      await chargeCredits(ctx, limiter, guard, credits);
      return credits;
    },

    /** A JSON-RPC body of an admitted request: parse → validate → restrictions → limits → forward → normalise → record usage. */
    answerRpc: (ctx: RequestContext, network: Network, body: string, special?: SpecialForward): Promise<RpcReply> =>
      answer(ctx, network, body, special, false) as Promise<RpcReply>,

    /**
     * `answerRpc` for HTTP: the same answer, except that a single call answered with its result's
     * UTF-8 bytes (a cache hit) comes back as a {@link PreparedAnswer} to write as it is.
     */
    answerHttp: (ctx: RequestContext, network: Network, body: string): Promise<HttpRpcReply> =>
      answer(ctx, network, body, undefined, true),

    /** Stage "record usage" for transports that answer themselves (IPFS, subscription events). */
    recordUsage: (ctx: RequestContext, o: Parameters<typeof recordUsage>[2]) => recordUsage(ctx, usage, o),
  };
}

/** The request path built by {@link createRequestPath}. */
export type RequestPath = ReturnType<typeof createRequestPath>;
