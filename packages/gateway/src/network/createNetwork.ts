import type { NetworkSettings, UpstreamPolicy } from '../config/types.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import type { FamilyHandler } from '../families/FamilyHandler.js';
import type { MethodTraits } from '../families/types.js';
import type { Logger } from '../log/createLogger.js';
import { classifyUpstreamError, type UpstreamVerdict } from '../upstream/classifyUpstreamError.js';
import { type BreakerState, type CircuitBreaker, createCircuitBreaker } from '../upstream/createCircuitBreaker.js';
import type { HttpUpstream, UpstreamAnswer } from '../upstream/createHttpUpstream.js';
import { createUpstreamStats, type UpstreamStats } from '../upstream/createUpstreamStats.js';
import { requestedBlock } from '../upstream/requestedBlock.js';
import { UpstreamTransportError } from '../upstream/UpstreamTransportError.js';

/** What /health and /metrics read of one upstream: the background probe's last snapshot. */
export interface UpstreamHealth {
  name: string;
  /** Whether it takes traffic: its breaker is not open and its last probe answered. */
  healthy: boolean;
  /** `partner` for a failover partner. */
  role: 'primary' | 'partner';
  breaker: BreakerState;
  consecutiveFailures: number;
  /** Latency EWMA and p95 of its answers, ms. */
  latencyMs?: number;
  p95Ms?: number;
  errorRate: number;
  /** Its head from the probe, and how many blocks it is behind the best upstream. */
  head?: number;
  lag: number;
  /** The routing score (lower is better). */
  score: number;
  /** Methods it answered -32601 for. */
  lacks: string[];
  /** Starknet: its spec version and what it calls the pre-confirmed block. */
  specVersion?: string;
  lastProbeAt?: string;
  lastFailure?: string;
  /** The last probe's latency, ms. */
  lastLatencyMs?: number;
}

/** What one forwarded call gives: the result, which upstream answered, and whether a partner did. */
export interface Forwarded {
  result: unknown;
  upstream: string;
  failover?: 'partner' | undefined;
}

/** Per-call options beyond the call itself. */
export interface ForwardOptions {
  /** Epoch ms by which the answer is needed: retries stop before it. */
  readonly deadline?: number | undefined;
  /** The call may go to a partner provider (the key's plan has failover protection and it asked). */
  readonly partners?: boolean | undefined;
}

/** A network at run time: its settings, family, and upstreams. */
export interface Network {
  readonly settings: NetworkSettings;
  readonly family: FamilyHandler;
  readonly upstreams: readonly HttpUpstream[];
  /**
   * Sends one call to the best upstream (routing by health score, breakers, capabilities),
   * failing over, retrying and hedging reads as the network's policy says, and says which
   * upstream answered. With `raw`, a plain result may come back as RawJson text. When `signal`
   * aborts (the client went away), upstream requests are abandoned.
   */
  forward(
    method: string,
    params: unknown,
    policy: MethodTraits,
    raw?: boolean,
    signal?: AbortSignal,
    options?: ForwardOptions,
  ): Promise<Forwarded>;
  /** WebSocket URLs of the upstreams that have one, best first (for subscriptions). */
  wsUpstreamUrl(): string | undefined;
  /** The background probe's last snapshot of every upstream (no upstream traffic). */
  health(): UpstreamHealth[];
  /** Failovers so far: answers from another upstream than the preferred one, and from partners. */
  failovers(): { upstream: number; partner: number };
  /** Runs one probe round now (tests, and the first round at start). */
  probeNow(): Promise<void>;
  /** Stops the background probe and closes the partners' connections (the primaries are the caller's). */
  close(): Promise<void>;
}

/** Everything createNetwork needs besides the settings. */
export interface NetworkDeps {
  readonly partners?: readonly HttpUpstream[];
  readonly log?: Logger;
  /** Starknet: the tag the family sends for the pre-confirmed block (an upstream may differ). */
  readonly pendingTag?: 'pre_confirmed' | 'pending';
}

interface Member {
  readonly upstream: HttpUpstream;
  readonly role: 'primary' | 'partner';
  readonly stats: UpstreamStats;
  readonly breaker: CircuitBreaker;
  readonly lacks: Set<string>;
  consecutiveFailures: number;
  probeOk: boolean | undefined;
  lastProbeAt: number | undefined;
  lastProbeMs: number | undefined;
  lastFailure: string | undefined;
  specVersion: string | undefined;
  pendingTag: 'pre_confirmed' | 'pending' | undefined;
}

type Attempt =
  | { readonly ok: true; readonly answer: UpstreamAnswer & { error?: undefined } }
  | { readonly ok: false; readonly verdict: UpstreamVerdict; readonly err: UpstreamTransportError | UpstreamRpcError };

const DEFAULT_POLICY: UpstreamPolicy = {
  probeIntervalMs: 2_000,
  retries: 2,
  hedge: true,
  breakerFailures: 5,
  breakerOpenMs: 1_000,
  methodTimeoutsMs: {},
};

/** Resolves after `ms`, or at once when `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** A block number from a head probe's answer (eth: hex quantity; Starknet: a number). */
function headOf(result: unknown): number | undefined {
  if (typeof result === 'number' && Number.isSafeInteger(result)) return result;
  if (typeof result === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(result)) return Number.parseInt(result, 16);
  return undefined;
}

/** The params with the pre-confirmed block's name swapped for the other spelling (an upstream on an older spec). */
function retag(params: unknown, to: 'pre_confirmed' | 'pending'): unknown {
  const from = to === 'pending' ? 'pre_confirmed' : 'pending';
  const swap = (v: unknown): unknown => {
    if (v === from) return to;
    if (Array.isArray(v)) return v.map(swap);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = k === 'calldata' || k === 'signature' ? x : swap(x);
      return out;
    }
    return v;
  };
  return swap(params);
}

/**
 * Builds a network over its upstreams, with the upstream policies of `settings.policy`:
 *
 * - **Routing** by a health score per upstream (latency EWMA, error rate, head lag: see
 *   `createUpstreamStats`), re-ranked at most every 100 ms, sticking to the current preferred
 *   upstream until another is clearly better (a third faster); upstreams that lack the method
 *   (they answered -32601) are skipped for it.
 * - **Circuit breaker** per upstream (`createCircuitBreaker`): open after failures in a row or a
 *   high error rate, half-open on a timer; the trial is one user read or the background probe.
 * - **Failover and retries**: an answer the classifier (`classifyUpstreamError`) calls the
 *   node's trouble (down, 5xx, 429, -32005, header not found, missing trie node, …) sends a read
 *   to the next upstream; after every upstream failed, reads are retried `policy.retries` times
 *   with backoff, honouring `Retry-After`, within the request's deadline. Writes go to one
 *   upstream and elsewhere only when the first surely did not receive them.
 * - **Hedging**: a read still unanswered after its upstream's p95 also goes to the next upstream;
 *   the first answer wins and the other request is abandoned.
 * - **Background health**: every `policy.probeIntervalMs` each upstream is asked for its head;
 *   lag, latency and breakers follow, Starknet upstreams' spec versions (their pre-confirmed
 *   tag) are learned and re-learned after a recovery; `health()` reads the snapshot.
 * - **Partners** (failover protection): with `options.partners`, a forwardable method goes to
 *   the partner providers when no primary could answer.
 */
export function createNetwork(
  settings: NetworkSettings,
  family: FamilyHandler,
  upstreams: HttpUpstream[],
  deps: NetworkDeps = {},
): Network {
  const policy = settings.policy ?? DEFAULT_POLICY;
  const log = deps.log;
  let nextId = 1;
  let upstreamFailovers = 0;
  let partnerFailovers = 0;
  const member = (upstream: HttpUpstream, role: Member['role']): Member => {
    const m: Member = {
      upstream,
      role,
      stats: createUpstreamStats(),
      breaker: createCircuitBreaker(
        {
          failuresToOpen: policy.breakerFailures,
          errorRateToOpen: 0.5,
          window: 20,
          openMs: policy.breakerOpenMs,
          maxOpenMs: Math.max(policy.breakerOpenMs, 30_000),
        },
        (from, to) =>
          log?.warn('upstream circuit breaker changed', { network: settings.name, upstream: upstream.name, from, to }),
      ),
      lacks: new Set(),
      consecutiveFailures: 0,
      probeOk: undefined,
      lastProbeAt: undefined,
      lastProbeMs: undefined,
      lastFailure: undefined,
      specVersion: undefined,
      pendingTag: undefined,
    };
    return m;
  };
  const primaries = upstreams.map((u) => member(u, 'primary'));
  const partners = (deps.partners ?? []).map((u) => member(u, 'partner'));

  // ranking: recomputed at most every 100 ms, sticky to the preferred upstream
  let order: Member[] = primaries;
  let rankedAt = 0;
  let preferred: Member | undefined = primaries[0];
  const ranked = (): Member[] => {
    if (primaries.length < 2) return primaries;
    const now = Date.now();
    if (now - rankedAt < 100) return order;
    rankedAt = now;
    const usable = (m: Member) => (m.breaker.state() === 'open' ? 1 : 0);
    const sorted = [...primaries].sort((a, b) => usable(a) - usable(b) || a.stats.score() - b.stats.score());
    const best = sorted[0]!;
    if (
      preferred !== undefined &&
      preferred !== best &&
      preferred.breaker.state() !== 'open' &&
      preferred.stats.score() <= best.stats.score() * 1.5
    ) {
      sorted.splice(sorted.indexOf(preferred), 1);
      sorted.unshift(preferred);
    } else if (preferred !== best) {
      log?.warn('upstream failover: routing prefers another upstream', {
        network: settings.name,
        from: preferred?.upstream.name,
        to: best.upstream.name,
      });
      preferred = best;
    }
    order = sorted;
    return order;
  };

  /** The best head among the primaries (the network's head tracker: probes and answers). */
  const bestHead = (): number | undefined => {
    let best: number | undefined;
    for (const m of primaries) {
      const h = m.stats.head();
      if (h !== undefined && (best === undefined || h > best)) best = h;
    }
    return best;
  };

  async function attempt(
    m: Member,
    method: string,
    params: unknown,
    raw: boolean,
    signal?: AbortSignal,
  ): Promise<Attempt> {
    const sent =
      m.pendingTag !== undefined && deps.pendingTag !== undefined && m.pendingTag !== deps.pendingTag
        ? retag(params, m.pendingTag)
        : params;
    const started = performance.now();
    // the method's own timeout, when the network's policy sets one
    const limitMs = policy.methodTimeoutsMs[method];
    const limit = limitMs === undefined ? undefined : AbortSignal.timeout(limitMs);
    const callSignal = limit === undefined ? signal : signal === undefined ? limit : AbortSignal.any([signal, limit]);
    let answer: UpstreamAnswer;
    try {
      answer = await m.upstream.call({ jsonrpc: '2.0', id: nextId++, method, params: sent }, raw, callSignal);
    } catch (caught) {
      if (signal?.aborted) throw caught;
      const err =
        limit?.aborted === true
          ? new UpstreamTransportError('timeout', `upstream did not answer ${method} within ${limitMs} ms`, true)
          : caught;
      if (err instanceof ClientGoneError) throw err;
      if (!(err instanceof UpstreamTransportError)) throw err;
      m.stats.record(performance.now() - started, false);
      m.breaker.failure();
      m.consecutiveFailures += 1;
      m.lastFailure = err.message;
      return { ok: false, verdict: classifyUpstreamError(err), err };
    }
    const latency = performance.now() - started;
    if (answer.error !== undefined) {
      const e = answer.error;
      const rpcError = Object.assign(
        new UpstreamRpcError(
          typeof e.code === 'number' ? e.code : -32603,
          typeof e.message === 'string' ? e.message : 'upstream error',
          e.data,
        ),
        { upstream: m.upstream.name },
      );
      const verdict = classifyUpstreamError(rpcError, {
        requested: requestedBlock(method, params),
        head: m.stats.head(),
        bestHead: bestHead(),
      });
      if (verdict.kind === 'unavailable') {
        m.stats.record(latency, false);
        m.breaker.failure();
        m.consecutiveFailures += 1;
        m.lastFailure = verdict.reason;
      } else {
        if (verdict.kind === 'unsupported') m.lacks.add(method);
        m.stats.record(latency, true);
        m.breaker.success();
        m.consecutiveFailures = 0;
      }
      return { ok: false, verdict, err: rpcError };
    }
    m.stats.record(latency, true);
    m.breaker.success();
    m.consecutiveFailures = 0;
    return { ok: true, answer: answer as UpstreamAnswer & { error?: undefined } };
  }

  /** A read on `m`, hedged on `next` once `m` is slower than its p95. */
  async function hedged(
    m: Member,
    next: Member | undefined,
    method: string,
    params: unknown,
    raw: boolean,
    signal?: AbortSignal,
  ): Promise<{ attempt: Attempt; by: Member }> {
    const p95 = policy.hedge && next !== undefined ? m.stats.p95Ms() : undefined;
    if (p95 === undefined || next === undefined)
      return { attempt: await attempt(m, method, params, raw, signal), by: m };
    const first = new AbortController();
    const second = new AbortController();
    const onClientGone = () => {
      first.abort();
      second.abort();
    };
    signal?.addEventListener('abort', onClientGone, { once: true });
    try {
      const a = attempt(m, method, params, raw, first.signal).then((r) => ({ attempt: r, by: m }));
      let timer: NodeJS.Timeout | undefined;
      const hedge = new Promise<'hedge'>((resolve) => {
        // at least 20 ms: below that a busy event loop alone would double the traffic
        timer = setTimeout(() => resolve('hedge'), Math.max(20, p95));
      });
      const winner = await Promise.race([a, hedge]);
      clearTimeout(timer);
      if (winner !== 'hedge') return winner;
      if (!next.breaker.allow() || next.lacks.has(method)) return await a;
      const b = attempt(next, method, params, raw, second.signal).then((r) => ({ attempt: r, by: next }));
      // the first success wins; if one fails, wait for the other
      const settled = await new Promise<{ attempt: Attempt; by: Member }>((resolve, reject) => {
        let pending = 2;
        let failed: { attempt: Attempt; by: Member } | undefined;
        let thrown: unknown;
        const finish = () => {
          if (pending > 0) return;
          if (failed !== undefined) resolve(failed);
          else reject(thrown);
        };
        const take = (r: { attempt: Attempt; by: Member }) => {
          pending -= 1;
          if (r.attempt.ok || r.attempt.verdict.kind === 'client') {
            pending = -1;
            resolve(r);
            return;
          }
          failed ??= r;
          finish();
        };
        const lost = (err: unknown) => {
          pending -= 1;
          thrown ??= err;
          finish();
        };
        a.then(take, lost);
        b.then(take, lost);
      });
      return settled;
    } finally {
      signal?.removeEventListener('abort', onClientGone);
      first.abort();
      second.abort();
    }
  }

  const unavailable = (last: UpstreamTransportError | UpstreamRpcError | undefined, why?: string) => {
    // a node answered (even "header not found" from every node): its answer is the client's
    if (last instanceof UpstreamRpcError) return last;
    const reason = why ?? last?.message ?? 'no upstream configured';
    return new GatewayError('UPSTREAM_UNAVAILABLE', `upstream unavailable for network ${settings.name}: ${reason}`, {
      data: {
        network: settings.name,
        reason: last instanceof UpstreamTransportError ? last.failure : why ? 'circuit-open' : 'upstream-error',
      },
      cause: last,
    });
  };

  async function forwardRead(
    method: string,
    params: unknown,
    raw: boolean,
    signal: AbortSignal | undefined,
    options: ForwardOptions | undefined,
  ): Promise<Forwarded> {
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    let retryAfter = 0;
    // a node that timed out already took its time: no retry round after one
    let timedOut = false;
    const list = ranked();
    for (let round = 0; round <= policy.retries; round++) {
      let triedAny = false;
      // a round is worth repeating only when a node was in trouble (not when nodes lack the data)
      let troubled = false;
      for (let i = 0; i < list.length; i++) {
        const m = list[i]!;
        if (m.lacks.has(method) || !m.breaker.allow()) continue;
        triedAny = true;
        let next: Member | undefined;
        for (let j = i + 1; j < list.length && next === undefined; j++) {
          const c = list[j]!;
          // a hedge never goes to a node further behind (it could answer with older data)
          if (!c.lacks.has(method) && c.breaker.state() === 'closed' && c.stats.lag() <= m.stats.lag()) next = c;
        }
        const { attempt: r, by } = await hedged(m, next, method, params, raw, signal);
        if (r.ok) {
          if (by !== list[0]) upstreamFailovers += 1;
          return { result: r.answer.result, upstream: by.upstream.name };
        }
        if (r.verdict.kind === 'client') throw r.err;
        last = r.err;
        if (r.err instanceof UpstreamTransportError && r.err.failure === 'timeout') timedOut = true;
        if (r.verdict.kind === 'unavailable') {
          troubled = true;
          if (r.verdict.retryAfterMs !== undefined) retryAfter = Math.max(retryAfter, r.verdict.retryAfterMs);
        }
        if (by !== m) i += 1; // the hedge already tried the next one
      }
      if (!triedAny || !troubled || timedOut || round === policy.retries) break;
      const wait = Math.max(50 * 2 ** round, retryAfter);
      const deadline = options?.deadline;
      if (deadline !== undefined && Date.now() + wait > deadline - 100) break;
      if (wait > 5_000) break;
      await sleep(wait, signal);
      if (signal?.aborted) throw new ClientGoneError();
      retryAfter = 0;
    }
    if (options?.partners && partners.length > 0) {
      for (const p of partners) {
        if (!p.breaker.allow()) continue;
        const r = await attempt(p, method, params, raw, signal);
        if (r.ok) {
          partnerFailovers += 1;
          log?.info('answered by a failover partner', { network: settings.name, partner: p.upstream.name, method });
          return { result: r.answer.result, upstream: p.upstream.name, failover: 'partner' };
        }
        if (r.verdict.kind === 'client') throw r.err;
      }
    }
    throw unavailable(last, last === undefined ? 'every upstream is failing (circuit open)' : undefined);
  }

  async function forwardWrite(method: string, params: unknown, raw: boolean, signal?: AbortSignal): Promise<Forwarded> {
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    const list = ranked();
    let triedAny = false;
    for (const m of list) {
      if (m.lacks.has(method) || !m.breaker.allow()) continue;
      triedAny = true;
      const r = await attempt(m, method, params, raw, signal);
      if (r.ok) return { result: r.answer.result, upstream: m.upstream.name };
      // the node's answer to a write is final (it may have acted on it), except "no such method"
      if (r.err instanceof UpstreamRpcError && r.verdict.kind !== 'unsupported') throw r.err;
      last = r.err;
      if (r.err instanceof UpstreamTransportError && r.err.maybeDelivered) break;
    }
    throw unavailable(last, triedAny ? undefined : 'every upstream is failing (circuit open)');
  }

  let probing: Promise<void> | undefined;
  async function probeOne(m: Member, timeoutMs: number): Promise<void> {
    const started = performance.now();
    const wasDown = m.probeOk === false || m.breaker.state() !== 'closed';
    let head: number | undefined;
    try {
      const answer = await m.upstream.call(
        { jsonrpc: '2.0', id: nextId++, method: family.probeMethod, params: [] },
        false,
        AbortSignal.timeout(timeoutMs),
      );
      if (answer.error !== undefined) throw new Error(answer.error.message);
      head = headOf(answer.result);
      m.lastProbeMs = Math.round((performance.now() - started) * 100) / 100;
      m.probeOk = true;
      m.stats.setHead(head);
      // a breaker past its open time takes the probe as its trial
      if (m.breaker.state() !== 'closed' && m.breaker.allow()) m.breaker.success();
      if (settings.family === 'starknet' && (m.specVersion === undefined || wasDown)) await learnSpec(m, timeoutMs);
    } catch (err) {
      m.probeOk = false;
      m.lastFailure = err instanceof Error ? err.message : String(err);
      // a node that refuses connections is down: no user request needs to find out; other
      // failures (a slow answer) count like a failed request
      if (m.breaker.state() === 'closed') {
        if (err instanceof UpstreamTransportError && err.failure === 'connect') m.breaker.trip();
        else m.breaker.failure();
      } else if (m.breaker.allow()) m.breaker.failure();
    } finally {
      m.lastProbeAt = Date.now();
    }
  }
  async function learnSpec(m: Member, timeoutMs: number): Promise<void> {
    try {
      const answer = await m.upstream.call(
        { jsonrpc: '2.0', id: nextId++, method: 'starknet_specVersion', params: [] },
        false,
        AbortSignal.timeout(timeoutMs),
      );
      const version = answer.error === undefined && typeof answer.result === 'string' ? answer.result : undefined;
      if (version === undefined) return;
      const mm = /^(\d+)\.(\d+)/.exec(version);
      m.specVersion = version;
      m.pendingTag = mm && Number(mm[1]) === 0 && Number(mm[2]) < 9 ? 'pending' : 'pre_confirmed';
    } catch {
      // learned at the next probe
    }
  }
  const probeNow = () => {
    probing ??= (async () => {
      const timeoutMs = Math.min(2_000, Math.max(250, policy.probeIntervalMs));
      await Promise.all([...primaries, ...partners].map((m) => probeOne(m, timeoutMs)));
      const heads = primaries.map((m) => m.stats.head()).filter((h): h is number => h !== undefined);
      const best = heads.length > 0 ? Math.max(...heads) : undefined;
      for (const m of primaries) {
        const h = m.stats.head();
        m.stats.setLag(best === undefined || h === undefined ? 0 : best - h);
      }
      rankedAt = 0;
    })().finally(() => {
      probing = undefined;
    });
    return probing;
  };
  const timer = setInterval(() => void probeNow(), policy.probeIntervalMs);
  timer.unref();

  const snapshot = (m: Member): UpstreamHealth => {
    const h: UpstreamHealth = {
      name: m.upstream.name,
      role: m.role,
      healthy: m.breaker.state() !== 'open' && m.probeOk !== false,
      breaker: m.breaker.state(),
      consecutiveFailures: m.consecutiveFailures,
      errorRate: Math.round(m.stats.errorRate() * 1000) / 1000,
      lag: m.stats.lag(),
      score: Math.round(m.stats.score() * 100) / 100,
      lacks: [...m.lacks],
    };
    const ewma = m.stats.ewmaMs();
    if (ewma !== undefined) h.latencyMs = Math.round(ewma * 100) / 100;
    const p95 = m.stats.p95Ms();
    if (p95 !== undefined) h.p95Ms = Math.round(p95 * 100) / 100;
    const head = m.stats.head();
    if (head !== undefined) h.head = head;
    if (m.specVersion !== undefined) h.specVersion = m.specVersion;
    if (m.lastProbeAt !== undefined) h.lastProbeAt = new Date(m.lastProbeAt).toISOString();
    if (m.lastFailure !== undefined) h.lastFailure = m.lastFailure;
    if (m.lastProbeMs !== undefined) h.lastLatencyMs = m.lastProbeMs;
    return h;
  };

  return {
    settings,
    family,
    upstreams,
    forward(method, params, traits, raw = false, signal, options) {
      return traits.kind === 'write'
        ? forwardWrite(method, params, raw, signal)
        : forwardRead(method, params, raw, signal, traits.forwardable ? options : undefined);
    },
    wsUpstreamUrl() {
      return ranked().find((m) => m.upstream.wsUrl !== undefined)?.upstream.wsUrl;
    },
    health: () => [...primaries, ...partners].map(snapshot),
    failovers: () => ({ upstream: upstreamFailovers, partner: partnerFailovers }),
    probeNow,
    async close() {
      clearInterval(timer);
      await Promise.all(partners.map((p) => p.upstream.close()));
    },
  };
}
