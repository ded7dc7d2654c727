import type { NetworkSettings } from '../config/types.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import type { FamilyHandler } from '../families/FamilyHandler.js';
import type { MethodTraits } from '../families/types.js';
import { RawJson } from '../jsonrpc/RawJson.js';
import type { Logger } from '../log/createLogger.js';
import { classifyUpstreamError, type UpstreamVerdict } from '../upstream/classifyUpstreamError.js';
import { type BreakerState, type CircuitBreaker, createCircuitBreaker } from '../upstream/createCircuitBreaker.js';
import type { HttpUpstream, UpstreamAnswer } from '../upstream/createHttpUpstream.js';
import { createLearnedCapabilities, type LearnedCapabilities } from '../upstream/createLearnedCapabilities.js';
import { createUpstreamStats, type UpstreamStats } from '../upstream/createUpstreamStats.js';
import { headOfAnswer } from '../upstream/headOfAnswer.js';
import { type BlockRef, requestedBlock } from '../upstream/requestedBlock.js';
import { SCORE_CLASSES, type ScoreClass, scoreClassOf } from '../upstream/scoreClassOf.js';
import { UpstreamTransportError } from '../upstream/UpstreamTransportError.js';

/** One method class's view of an upstream (see `scoreClassOf`). */
export interface ClassHealth {
  /** The routing score for this class (lower is better). */
  score: number;
  /** Latency EWMA and p95 of its answers of this class, ms. */
  latencyMs?: number;
  p95Ms?: number;
  errorRate: number;
  /** Latencies recorded (at most 128 kept). */
  samples: number;
}

/** What /health and /metrics read of one upstream: the background probe's last snapshot. */
export interface UpstreamHealth {
  name: string;
  /** Whether it takes traffic: its breaker is not open, its last probe answered, and it is on the network's chain. */
  healthy: boolean;
  /** `partner` for a failover partner. */
  role: 'primary' | 'partner';
  breaker: BreakerState;
  consecutiveFailures: number;
  /** The light class's latency EWMA and p95 (the probe's class), ms. */
  latencyMs?: number;
  p95Ms?: number;
  /** The light class's error rate. */
  errorRate: number;
  /** Its head (from the probe and from head answers), and how many blocks it is behind the best upstream. */
  head?: number;
  lag: number;
  /** The light class's routing score (lower is better). */
  score: number;
  /** Per method class: score, latency, p95, error rate. */
  classes: Record<ScoreClass, ClassHealth>;
  /** Methods it answered -32601 for (re-learned after a recovery, or after `capabilityTtlMs`). */
  lacks: string[];
  /** What it said at start and after each recovery: its chain id and client version. */
  chainId?: string;
  clientVersion?: string;
  /** Its chain id differs from the network's `chainId`: it takes no traffic. */
  wrongChain?: boolean;
  /** Starknet: its spec version (and so what it calls the pre-confirmed block). */
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
  /** The client request's id, for the log lines of a failover that happens inside it. */
  readonly requestId?: string | undefined;
}

/** A network at run time: its settings, family, and upstreams. */
export interface Network {
  readonly settings: NetworkSettings;
  readonly family: FamilyHandler;
  readonly upstreams: readonly HttpUpstream[];
  /**
   * Sends one call to the best upstream (routing by health score per method class, breakers,
   * capabilities, heads), failing over, retrying and hedging reads as the network's policy says,
   * and says which upstream answered. With `raw`, a plain result may come back as RawJson text.
   * When `signal` aborts (the client went away), upstream requests are abandoned.
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
  /** The highest head a head answer (`eth_blockNumber`, the latest block) has shown a client. */
  servedHead(): number | undefined;
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
  /** Random numbers in [0, 1) for the exploration share (tests inject a fixed sequence). Default Math.random. */
  readonly random?: () => number;
  /** The clock, epoch ms (breakers, capability expiry, ranking). Default Date.now. */
  readonly now?: () => number;
}

interface Member {
  readonly upstream: HttpUpstream;
  readonly role: 'primary' | 'partner';
  readonly stats: Record<ScoreClass, UpstreamStats>;
  readonly breaker: CircuitBreaker;
  readonly caps: LearnedCapabilities;
  head: number | undefined;
  lag: number;
  consecutiveFailures: number;
  probeOk: boolean | undefined;
  lastProbeAt: number | undefined;
  lastProbeMs: number | undefined;
  lastFailure: string | undefined;
  /** Its basics are to be (re-)learned at the next successful probe. */
  relearn: boolean;
  chainId: string | undefined;
  clientVersion: string | undefined;
  wrongChain: boolean;
  specVersion: string | undefined;
  pendingTag: 'pre_confirmed' | 'pending' | undefined;
}

type Attempt =
  | { readonly ok: true; readonly answer: UpstreamAnswer & { error?: undefined } }
  | { readonly ok: false; readonly verdict: UpstreamVerdict; readonly err: UpstreamTransportError | UpstreamRpcError };

/** One call as the routing sees it: what it is and what its answers are checked against. */
interface Call {
  readonly method: string;
  readonly params: unknown;
  readonly cls: ScoreClass;
  readonly requested: BlockRef | undefined;
  readonly raw: boolean;
}

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

/** `head` in the shape of a block-number answer (`result`: hex text, raw hex text or a number); undefined for other shapes. */
function servedNumber(result: unknown, head: number): unknown {
  if (typeof result === 'number') return head;
  if (typeof result === 'string' && /^0x[0-9a-fA-F]+$/.test(result)) return `0x${head.toString(16)}`;
  if (result instanceof RawJson && /^"0x[0-9a-fA-F]+"$/.test(result.text))
    return new RawJson(`"0x${head.toString(16)}"`);
  if (result instanceof RawJson && /^\d+$/.test(result.text)) return new RawJson(String(head));
  return undefined;
}

/** Two chain ids (hex felts or quantities) are the same number. */
function sameChain(a: string, b: string): boolean {
  try {
    return BigInt(a) === BigInt(b);
  } catch {
    return a.toLowerCase() === b.toLowerCase();
  }
}

/** What each family asks an upstream at start and after a recovery: its chain id and its client (spec) version. */
const BASICS = {
  eth: { chainId: 'eth_chainId', version: 'web3_clientVersion' },
  starknet: { chainId: 'starknet_chainId', version: 'starknet_specVersion' },
} as const;

/**
 * Builds a network over its upstreams, with the upstream policies of `settings.policy`:
 *
 * - **Routing** by a health score per upstream and method class (`scoreClassOf`: light reads,
 *   heavy reads, writes; latency EWMA, error rate, head lag: see `createUpstreamStats`),
 *   re-ranked at most every 100 ms, sticking to the class's preferred upstream until another is
 *   clearly better (a third faster). A share of reads (`exploreShare`) goes to another upstream
 *   that is not open and not behind, so every score stays fresh. Upstreams that lack the method
 *   (they answered -32601; re-learned after a recovery or `capabilityTtlMs`) are skipped for it;
 *   when all lack it the answer is -32601.
 * - **Circuit breaker** per upstream (`createCircuitBreaker`): open after failures in a row or a
 *   high error rate, half-open on a timer; the trial is one user read or the background probe.
 * - **Failover and retries**: an answer the classifier (`classifyUpstreamError`, told the heads)
 *   calls the node's trouble sends a read to the next upstream; after every upstream failed,
 *   reads are retried `policy.retries` times with backoff, honouring `Retry-After`, within the
 *   request's deadline. A block beyond the best head is the client's answer. Writes go to one
 *   upstream and elsewhere only when the first surely did not receive them.
 * - **Heads never go backwards**: reads that follow the head (a tag, a `head` method) go to the
 *   upstreams at the best known head first, and an answer showing the head (`headOfAnswer`)
 *   below the highest head already served is replaced by another upstream's, if one has it.
 * - **Hedging**: a read still unanswered after its upstream's p95 for the method's class also
 *   goes to the next upstream; the first answer wins and the other request is abandoned.
 * - **Background health**: every `policy.probeIntervalMs` each primary is asked for its head;
 *   lag, latency, error rates and breakers follow; each upstream's chain id and client version
 *   (Starknet: spec version and pre-confirmed tag) are learned at start and after a recovery.
 *   Partners are probed every `partnerProbeIntervalMs`, or every round while no primary is
 *   usable. `health()` reads the snapshot.
 * - **Partners** (failover protection): with `options.partners`, a forwardable method goes to
 *   the partner providers when no primary could answer.
 */
export function createNetwork(
  settings: NetworkSettings,
  family: FamilyHandler,
  upstreams: HttpUpstream[],
  deps: NetworkDeps = {},
): Network {
  const policy = settings.policy;
  const log = deps.log;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  let nextId = 1;
  let upstreamFailovers = 0;
  let partnerFailovers = 0;
  /** The highest head shown to a client so far. */
  let served: number | undefined;

  const member = (upstream: HttpUpstream, role: Member['role']): Member => {
    const m: Member = {
      upstream,
      role,
      stats: { light: createUpstreamStats(), heavy: createUpstreamStats(), write: createUpstreamStats() },
      breaker: createCircuitBreaker(
        {
          failuresToOpen: policy.breakerFailures,
          errorRateToOpen: 0.5,
          window: 20,
          openMs: policy.breakerOpenMs,
          maxOpenMs: Math.max(policy.breakerOpenMs, 30_000),
        },
        (from, to) => {
          log?.warn('upstream circuit breaker changed', { network: settings.name, upstream: upstream.name, from, to });
          if (to === 'closed') recovered(m);
          if (m.role === 'primary') updateLags();
        },
      ),
      caps: createLearnedCapabilities(policy.capabilityTtlMs),
      head: undefined,
      lag: 0,
      consecutiveFailures: 0,
      probeOk: undefined,
      lastProbeAt: undefined,
      lastProbeMs: undefined,
      lastFailure: undefined,
      relearn: true,
      chainId: undefined,
      clientVersion: undefined,
      wrongChain: false,
      specVersion: undefined,
      pendingTag: undefined,
    };
    return m;
  };
  /** A recovered upstream (breaker closed after a trial, or a probe answered after failing) starts clean. */
  function recovered(m: Member): void {
    m.caps.forget();
    for (const c of SCORE_CLASSES) m.stats[c].forgiveErrors();
    m.relearn = true;
    invalidateRanking();
  }
  const primaries = upstreams.map((u) => member(u, 'primary'));
  const partners = (deps.partners ?? []).map((u) => member(u, 'partner'));

  // --- heads -------------------------------------------------------------------------------
  /** Answering: its breaker is not open and its last probe answered. */
  const live = (m: Member) => m.breaker.state() !== 'open' && m.probeOk !== false;
  /**
   * The best head among the live primaries (the network's head tracker: probes and head
   * answers); a primary that is open or failing its probe does not count (its last head would
   * make the live ones look behind), unless none is live.
   */
  const bestHead = (): number | undefined => {
    let best: number | undefined;
    let bestLive: number | undefined;
    for (const m of primaries) {
      if (m.head === undefined) continue;
      if (best === undefined || m.head > best) best = m.head;
      if (live(m) && (bestLive === undefined || m.head > bestLive)) bestLive = m.head;
    }
    return bestLive ?? best;
  };
  /** Records what `m` said its head is, and every primary's lag behind the best. */
  function noteHead(m: Member, head: number | undefined): void {
    m.head = head;
    if (m.role === 'primary') updateLags();
  }
  function updateLags(): void {
    const best = bestHead();
    let changed = false;
    for (const p of primaries) {
      const lag = best === undefined || p.head === undefined ? 0 : best - p.head;
      if (lag !== p.lag) {
        p.lag = lag;
        changed = true;
      }
    }
    if (changed) invalidateRanking();
  }

  // --- ranking, per method class ------------------------------------------------------------
  const usable = (m: Member) => !m.wrongChain && m.breaker.state() !== 'open';
  /** Per class: the ranking, the same with those at the best head first, when it was made, the preferred upstream. */
  const rankings = new Map<
    ScoreClass,
    { order: Member[]; headFirst: Member[]; at: number; preferred: Member | undefined }
  >(SCORE_CLASSES.map((c) => [c, { order: primaries, headFirst: primaries, at: 0, preferred: primaries[0] }]));
  function invalidateRanking(): void {
    for (const r of rankings.values()) r.at = 0;
  }
  /** The class's ranking (`headFirst`: those at the best head first), made at most every 100 ms or when lags change. */
  const ranked = (cls: ScoreClass, headFirst = false): Member[] => {
    const r = rankings.get(cls)!;
    if (primaries.length < 2) return primaries;
    const t = now();
    if (t - r.at < 100) return headFirst ? r.headFirst : r.order;
    r.at = t;
    const score = (m: Member) => m.stats[cls].score(m.lag);
    const sorted = [...primaries].sort((a, b) => Number(usable(b)) - Number(usable(a)) || score(a) - score(b));
    const best = sorted[0]!;
    const preferred = r.preferred;
    if (preferred !== undefined && preferred !== best && usable(preferred) && score(preferred) <= score(best) * 1.5) {
      sorted.splice(sorted.indexOf(preferred), 1);
      sorted.unshift(preferred);
    } else if (preferred !== best) {
      log?.warn('upstream failover: routing prefers another upstream', {
        network: settings.name,
        class: cls,
        from: preferred?.upstream.name,
        to: best.upstream.name,
      });
      r.preferred = best;
    }
    r.order = sorted;
    // a node behind would answer a read that follows the head with older data
    r.headFirst = sorted.some((m) => m.lag > 0)
      ? [...sorted.filter((m) => m.lag === 0), ...sorted.filter((m) => m.lag > 0)]
      : sorted;
    return headFirst ? r.headFirst : sorted;
  };
  /** Whether `m` serves `method` as far as is known (it did not answer -32601 for it lately). */
  const serves = (m: Member, method: string) => !m.caps.lacks(method, now());
  /** Whether `m` may get `method`: on the network's chain and serving it. */
  const takes = (m: Member, method: string) => !m.wrongChain && serves(m, method);
  /** Every upstream on the network's chain lacks `method` (the answer is then -32601). */
  const allLack = (list: readonly Member[], method: string) => {
    let onChain = 0;
    for (const m of list) {
      if (m.wrongChain) continue;
      if (serves(m, method)) return false;
      onChain += 1;
    }
    return onChain > 0;
  };

  /** The order one read tries the upstreams in: the ranking, head followers first, and now and then an explorer. */
  function routeRead(call: Call, traits: MethodTraits): Member[] {
    const followsHead =
      traits.cache === 'head' || (call.requested?.kind === 'tag' && call.requested.tag !== 'earliest');
    let list = ranked(call.cls, followsHead);
    if (list.length < 2) return list;
    if (policy.exploreShare > 0 && random() < policy.exploreShare) {
      const first = list[0]!;
      const candidates = list.filter(
        (m) => m !== first && m.breaker.state() !== 'open' && m.lag <= first.lag && takes(m, call.method),
      );
      if (candidates.length > 0) {
        const pick = candidates[Math.min(candidates.length - 1, Math.floor(random() * candidates.length))]!;
        list = [pick, ...list.filter((m) => m !== pick)];
      }
    }
    return list;
  }

  // --- one attempt on one upstream ---------------------------------------------------------
  async function attempt(m: Member, call: Call, signal?: AbortSignal): Promise<Attempt> {
    const { method } = call;
    const sent =
      m.pendingTag !== undefined && deps.pendingTag !== undefined && m.pendingTag !== deps.pendingTag
        ? retag(call.params, m.pendingTag)
        : call.params;
    const started = performance.now();
    // the method's own timeout, when the network's policy sets one
    const limitMs = policy.methodTimeoutsMs[method];
    const limit = limitMs === undefined ? undefined : AbortSignal.timeout(limitMs);
    const callSignal = limit === undefined ? signal : signal === undefined ? limit : AbortSignal.any([signal, limit]);
    const stats = m.stats[call.cls];
    let answer: UpstreamAnswer;
    try {
      answer = await m.upstream.call({ jsonrpc: '2.0', id: nextId++, method, params: sent }, call.raw, callSignal);
    } catch (caught) {
      if (signal?.aborted) throw caught;
      const err =
        limit?.aborted === true
          ? new UpstreamTransportError('timeout', `upstream did not answer ${method} within ${limitMs} ms`, true)
          : caught;
      if (err instanceof ClientGoneError) throw err;
      if (!(err instanceof UpstreamTransportError)) throw err;
      stats.record(performance.now() - started, false);
      m.breaker.failure(now());
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
        requested: call.requested,
        head: m.head,
        bestHead: m.role === 'primary' ? bestHead() : m.head,
      });
      if (verdict.kind === 'unavailable') {
        stats.record(latency, false);
        m.breaker.failure(now());
        m.consecutiveFailures += 1;
        m.lastFailure = verdict.reason;
      } else {
        if (verdict.kind === 'unsupported') m.caps.learnLacks(method, now());
        stats.record(latency, true);
        m.breaker.success();
        m.consecutiveFailures = 0;
      }
      return { ok: false, verdict, err: rpcError };
    }
    stats.record(latency, true);
    m.breaker.success();
    m.consecutiveFailures = 0;
    return { ok: true, answer: answer as UpstreamAnswer & { error?: undefined } };
  }

  /** A read on `m`, hedged on `next` once `m` is slower than its p95 for the call's class. */
  async function hedged(
    m: Member,
    next: Member | undefined,
    call: Call,
    signal?: AbortSignal,
  ): Promise<{ attempt: Attempt; by: Member; hedgedOn: Member | undefined }> {
    const p95 = policy.hedge && next !== undefined ? m.stats[call.cls].p95Ms() : undefined;
    if (p95 === undefined || next === undefined)
      return { attempt: await attempt(m, call, signal), by: m, hedgedOn: undefined };
    const first = new AbortController();
    const second = new AbortController();
    const onClientGone = () => {
      first.abort();
      second.abort();
    };
    signal?.addEventListener('abort', onClientGone, { once: true });
    try {
      const a = attempt(m, call, first.signal).then((r) => ({ attempt: r, by: m }));
      let timer: NodeJS.Timeout | undefined;
      const hedge = new Promise<'hedge'>((resolve) => {
        // at least 20 ms: below that a busy event loop alone would double the traffic
        timer = setTimeout(() => resolve('hedge'), Math.max(20, p95));
      });
      const winner = await Promise.race([a, hedge]);
      clearTimeout(timer);
      if (winner !== 'hedge') return { ...winner, hedgedOn: undefined };
      if (!next.breaker.allow(now()) || !takes(next, call.method)) return { ...(await a), hedgedOn: undefined };
      const b = attempt(next, call, second.signal).then((r) => ({ attempt: r, by: next }));
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
      return { ...settled, hedgedOn: next };
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
  /** Why no upstream was asked at all. */
  const nothingTried = (list: readonly Member[]) =>
    list.length > 0 && list.every((m) => m.wrongChain)
      ? `no upstream is on chain ${settings.chainId}`
      : 'every upstream is failing (circuit open)';
  const methodNotFound = (method: string) =>
    new GatewayError('METHOD_NOT_FOUND', `the method ${method} does not exist/is not available`, {
      data: { network: settings.name, reason: 'no upstream serves it' },
    });

  /** Logs a failover inside one request: the upstream tried first failed and another answered. */
  const logFailover = (
    call: Call,
    from: Member,
    to: Member,
    reason: string | undefined,
    options: ForwardOptions | undefined,
    partner = false,
  ) =>
    log?.warn(partner ? 'answered by a failover partner' : 'upstream failover within a request', {
      network: settings.name,
      method: call.method,
      from: from.upstream.name,
      to: to.upstream.name,
      ...(reason === undefined ? {} : { reason }),
      ...(options?.requestId === undefined ? {} : { requestId: options.requestId }),
    });

  // --- the head a client saw never goes backwards ----------------------------------------------
  /** The last answer of each head call (`eth_getBlockByNumber("latest", …)`, …) at or above the served head. */
  const lastHeadAnswers = new Map<string, { head: number; result: unknown }>();
  const headKey = (call: Call) => `${call.method}|${JSON.stringify(call.params)}`;
  /**
   * Every upstream that answered is behind the head a client already saw. When they are all the
   * upstreams there are, the chain went back (a reorg to a shorter chain, a dev revert): their
   * best answer stands and becomes the served head. When an upstream at the served head failed
   * or is open, the client gets the served head instead: the block number itself, or the last
   * answer of the same call; a lagging node's older head is never shown.
   */
  function settleBehind(
    call: Call,
    list: readonly Member[],
    behind: { result: unknown; by: Member; head: number },
    answered: ReadonlySet<Member>,
  ): Forwarded {
    if (behind.by !== list[0]) upstreamFailovers += 1;
    const everyone = list.filter((m) => takes(m, call.method)).every((m) => answered.has(m));
    if (everyone || served === undefined) {
      served = behind.head;
      lastHeadAnswers.set(headKey(call), { head: behind.head, result: behind.result });
      return { result: behind.result, upstream: behind.by.upstream.name };
    }
    const number = servedNumber(behind.result, served);
    if (number !== undefined) return { result: number, upstream: behind.by.upstream.name };
    const kept = lastHeadAnswers.get(headKey(call));
    if (kept !== undefined && kept.head > behind.head)
      return { result: kept.result, upstream: behind.by.upstream.name };
    return { result: behind.result, upstream: behind.by.upstream.name };
  }

  async function forwardRead(
    call: Call,
    traits: MethodTraits,
    signal: AbortSignal | undefined,
    options: ForwardOptions | undefined,
    /** The method is forwardable and the request may go to a partner. */
    toPartners: boolean,
  ): Promise<Forwarded> {
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    let firstFailed: { m: Member; reason: string } | undefined;
    let retryAfter = 0;
    // a node that timed out already took its time: no retry round after one
    let timedOut = false;
    // an answer showing a head below one already served, kept in case no upstream has better
    let behind: { result: unknown; by: Member; head: number } | undefined;
    // a node answered that it lacks the method or the data (not an outage)
    let nodeAnswered = false;
    const list = routeRead(call, traits);
    // the upstreams that answered, behind the head served (to tell a lagging node from a chain gone back)
    const answeredBehind = new Set<Member>();
    for (let round = 0; round <= policy.retries; round++) {
      let triedAny = false;
      // a round is worth repeating only when a node was in trouble (not when nodes lack the data)
      let troubled = false;
      const tried = new Set<Member>();
      for (let i = 0; i < list.length; i++) {
        const m = list[i]!;
        if (tried.has(m) || !takes(m, call.method) || !m.breaker.allow(now())) continue;
        triedAny = true;
        let next: Member | undefined;
        for (let j = i + 1; policy.hedge && j < list.length && next === undefined; j++) {
          const c = list[j]!;
          // a hedge never goes to a node further behind (it could answer with older data)
          if (!tried.has(c) && takes(c, call.method) && c.breaker.state() === 'closed' && c.lag <= m.lag) next = c;
        }
        const { attempt: r, by, hedgedOn } = await hedged(m, next, call, signal);
        tried.add(m);
        if (hedgedOn !== undefined) tried.add(hedgedOn);
        if (r.ok) {
          const result = r.answer.result;
          const head = headOfAnswer(call.method, call.params, result);
          if (head !== undefined) {
            noteHead(by, head);
            if (served !== undefined && head < served) {
              // behind what a client already saw: another upstream may be at the head
              if (behind === undefined || head > behind.head) behind = { result, by, head };
              answeredBehind.add(by);
              firstFailed ??= { m: by, reason: `answered head ${head}, below ${served} already served` };
              continue;
            }
            served = head;
            lastHeadAnswers.set(headKey(call), { head, result });
          }
          if (by !== list[0]) upstreamFailovers += 1;
          if (firstFailed !== undefined && firstFailed.m !== by)
            logFailover(call, firstFailed.m, by, firstFailed.reason, options);
          return { result, upstream: by.upstream.name };
        }
        if (r.verdict.kind === 'client') throw r.err;
        last = r.err;
        if (r.verdict.kind === 'missing' || r.verdict.kind === 'unsupported') nodeAnswered = true;
        firstFailed ??= {
          m: by,
          reason:
            r.verdict.kind === 'unavailable' || r.verdict.kind === 'missing' ? r.verdict.reason : 'lacks the method',
        };
        if (r.err instanceof UpstreamTransportError && r.err.failure === 'timeout') timedOut = true;
        if (r.verdict.kind === 'unavailable') {
          troubled = true;
          if (r.verdict.retryAfterMs !== undefined) retryAfter = Math.max(retryAfter, r.verdict.retryAfterMs);
        }
      }
      if (!triedAny || !troubled || timedOut || round === policy.retries) break;
      const wait = Math.max(50 * 2 ** round, retryAfter);
      const deadline = options?.deadline;
      if (deadline !== undefined && now() + wait > deadline - 100) break;
      if (wait > 5_000) break;
      await sleep(wait, signal);
      if (signal?.aborted) throw new ClientGoneError();
      retryAfter = 0;
    }
    if (behind !== undefined) return settleBehind(call, list, behind, answeredBehind);
    if (allLack(list, call.method)) throw methodNotFound(call.method);
    // partners only while every primary is failing or open (not when nodes answered they lack it)
    if (toPartners && partners.length > 0 && !nodeAnswered) {
      for (const p of partners) {
        if (!takes(p, call.method) || !p.breaker.allow(now())) continue;
        const r = await attempt(p, call, signal);
        if (r.ok) {
          partnerFailovers += 1;
          logFailover(
            call,
            firstFailed?.m ?? list[0] ?? p,
            p,
            firstFailed?.reason ?? 'every upstream is open',
            options,
            true,
          );
          return { result: r.answer.result, upstream: p.upstream.name, failover: 'partner' };
        }
        if (r.verdict.kind === 'client') throw r.err;
      }
    }
    throw unavailable(last, last === undefined ? nothingTried(list) : undefined);
  }

  async function forwardWrite(call: Call, signal?: AbortSignal): Promise<Forwarded> {
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    const list = ranked(call.cls);
    let triedAny = false;
    for (const m of list) {
      if (!takes(m, call.method) || !m.breaker.allow(now())) continue;
      triedAny = true;
      const r = await attempt(m, call, signal);
      if (r.ok) return { result: r.answer.result, upstream: m.upstream.name };
      // the node's answer to a write is final (it may have acted on it), except "no such method"
      if (r.err instanceof UpstreamRpcError && r.verdict.kind !== 'unsupported') throw r.err;
      last = r.err;
      if (r.err instanceof UpstreamTransportError && r.err.maybeDelivered) break;
    }
    if (!triedAny && allLack(list, call.method)) throw methodNotFound(call.method);
    throw unavailable(last, triedAny ? undefined : nothingTried(list));
  }

  // --- background health ---------------------------------------------------------------------
  /** The probe (a head or a chain id) is a light read. */
  const probeClass: ScoreClass = 'light';
  async function ask(m: Member, method: string, timeoutMs: number): Promise<unknown> {
    const answer = await m.upstream.call(
      { jsonrpc: '2.0', id: nextId++, method, params: [] },
      false,
      AbortSignal.timeout(timeoutMs),
    );
    if (answer.error !== undefined) throw new UpstreamRpcError(answer.error.code, answer.error.message);
    return answer.result;
  }
  /**
   * Learns what an upstream is: chain id and client version (Starknet: spec version, pre-confirmed
   * tag). `probed` is the probe's answer, which is the chain id where the family probes with it.
   */
  async function learnBasics(m: Member, probed: unknown, timeoutMs: number): Promise<void> {
    const basics = BASICS[settings.family];
    const [chainId, second] = await Promise.allSettled([
      basics.chainId === family.probeMethod ? probed : ask(m, basics.chainId, timeoutMs),
      ask(m, basics.version, timeoutMs),
    ]);
    if (chainId.status === 'fulfilled' && typeof chainId.value === 'string') {
      m.chainId = chainId.value;
      const wrong = settings.chainId !== undefined && !sameChain(chainId.value, settings.chainId);
      if (wrong && !m.wrongChain) {
        log?.error('upstream is on another chain: it takes no traffic', {
          network: settings.name,
          upstream: m.upstream.name,
          expected: settings.chainId,
          got: chainId.value,
        });
      }
      if (wrong !== m.wrongChain) invalidateRanking();
      m.wrongChain = wrong;
    }
    if (second.status === 'fulfilled' && typeof second.value === 'string') {
      if (settings.family === 'starknet') {
        const mm = /^(\d+)\.(\d+)/.exec(second.value);
        m.specVersion = second.value;
        m.pendingTag = mm && Number(mm[1]) === 0 && Number(mm[2]) < 9 ? 'pending' : 'pre_confirmed';
      } else {
        m.clientVersion = second.value;
      }
    }
    // learned once both answered (a node that lacks web3_clientVersion is asked again after a recovery)
    m.relearn = chainId.status !== 'fulfilled';
  }
  async function probeOne(m: Member, timeoutMs: number): Promise<void> {
    const started = performance.now();
    const wasDown = m.probeOk === false;
    try {
      const probed = await ask(m, family.probeMethod, timeoutMs);
      const head = headOfAnswer(family.probeMethod, [], probed);
      const latency = performance.now() - started;
      m.lastProbeMs = Math.round(latency * 100) / 100;
      m.probeOk = true;
      noteHead(m, head);
      // the probe is a light read; every class hears that the node answers
      for (const c of SCORE_CLASSES) {
        if (c === probeClass) m.stats[c].record(latency, true);
        else m.stats[c].recordOutcome(true);
      }
      // a breaker past its open time takes the probe as its trial
      if (m.breaker.state() !== 'closed' && m.breaker.allow(now())) m.breaker.success();
      else if (wasDown) recovered(m);
      if (m.relearn) await learnBasics(m, probed, timeoutMs);
    } catch (err) {
      const wasLive = m.probeOk !== false;
      m.probeOk = false;
      m.lastFailure = err instanceof Error ? err.message : String(err);
      if (wasLive && m.role === 'primary') updateLags();
      for (const c of SCORE_CLASSES) m.stats[c].recordOutcome(false);
      // a node that refuses connections is down: no user request needs to find out; other
      // failures (a slow answer) count like a failed request
      if (m.breaker.state() === 'closed') {
        if (err instanceof UpstreamTransportError && err.failure === 'connect') m.breaker.trip(now());
        else m.breaker.failure(now());
      } else if (m.breaker.allow(now())) m.breaker.failure(now());
    } finally {
      m.lastProbeAt = now();
    }
  }
  let probing: Promise<void> | undefined;
  let partnersProbedAt: number | undefined;
  const probeNow = () => {
    probing ??= (async () => {
      // a probe that takes a second is trouble enough; shorter ones fail nodes that are only busy
      const timeoutMs = Math.min(2_000, Math.max(1_000, policy.probeIntervalMs));
      // partners cost money at a provider: probed rarely, or at every round while no primary is usable
      const primariesDown = !primaries.some(live);
      const t = now();
      const probePartners =
        partners.length > 0 &&
        (partnersProbedAt === undefined || primariesDown || t - partnersProbedAt >= policy.partnerProbeIntervalMs);
      if (probePartners) partnersProbedAt = t;
      await Promise.all([...primaries, ...(probePartners ? partners : [])].map((m) => probeOne(m, timeoutMs)));
    })().finally(() => {
      probing = undefined;
    });
    return probing;
  };
  const timer = setInterval(() => void probeNow(), policy.probeIntervalMs);
  timer.unref();

  const classHealth = (s: UpstreamStats, lag: number): ClassHealth => {
    const h: ClassHealth = {
      score: Math.round(s.score(lag) * 100) / 100,
      errorRate: Math.round(s.errorRate() * 1000) / 1000,
      samples: s.samples(),
    };
    const ewma = s.ewmaMs();
    if (ewma !== undefined) h.latencyMs = Math.round(ewma * 100) / 100;
    const p95 = s.p95Ms();
    if (p95 !== undefined) h.p95Ms = Math.round(p95 * 100) / 100;
    return h;
  };
  const snapshot = (m: Member): UpstreamHealth => {
    const classes = {
      light: classHealth(m.stats.light, m.lag),
      heavy: classHealth(m.stats.heavy, m.lag),
      write: classHealth(m.stats.write, m.lag),
    };
    const light = classes[probeClass];
    const h: UpstreamHealth = {
      name: m.upstream.name,
      role: m.role,
      healthy: live(m) && !m.wrongChain,
      breaker: m.breaker.state(),
      consecutiveFailures: m.consecutiveFailures,
      errorRate: light.errorRate,
      lag: m.lag,
      score: light.score,
      classes,
      lacks: m.caps.lacked(now()),
    };
    if (light.latencyMs !== undefined) h.latencyMs = light.latencyMs;
    if (light.p95Ms !== undefined) h.p95Ms = light.p95Ms;
    if (m.head !== undefined) h.head = m.head;
    if (m.chainId !== undefined) h.chainId = m.chainId;
    if (m.clientVersion !== undefined) h.clientVersion = m.clientVersion;
    if (m.wrongChain) h.wrongChain = true;
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
      const call: Call = { method, params, cls: scoreClassOf(traits), requested: requestedBlock(method, params), raw };
      return traits.kind === 'write'
        ? forwardWrite(call, signal)
        : forwardRead(call, traits, signal, options, traits.forwardable === true && options?.partners === true);
    },
    wsUpstreamUrl() {
      const withWs = ranked('light').filter((m) => m.upstream.wsUrl !== undefined);
      return (withWs.find(usable) ?? withWs[0])?.upstream.wsUrl;
    },
    health: () => [...primaries, ...partners].map(snapshot),
    failovers: () => ({ upstream: upstreamFailovers, partner: partnerFailovers }),
    servedHead: () => served,
    probeNow,
    async close() {
      clearInterval(timer);
      await Promise.all(partners.map((p) => p.upstream.close()));
    },
  };
}
