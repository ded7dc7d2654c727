import type { NetworkSettings } from '../config/types.js';
import type { FamilyHandler } from '../families/FamilyHandler.js';
import type { Logger } from '../log/createLogger.js';
import type { HttpUpstream } from '../upstream/createHttpUpstream.js';
import { requestedBlock } from '../upstream/requestedBlock.js';
import { SCORE_CLASSES, scoreClassOf } from '../upstream/scoreClassOf.js';
import { GatewayError } from '../errors/GatewayError.js';
import { createHeads } from './heads/createHeads.js';
import { createMemoryLimiter } from '../limits/createMemoryLimiter.js';
import type { Limiter } from '../limits/Limiter.js';
import { createBlockAvailability } from './layers/availability/createBlockAvailability.js';
import { createBreakerLayer } from './layers/breaker/createBreakerLayer.js';
import { type ConsensusCounts, createConsensusLayer } from './layers/consensus/createConsensusLayer.js';
import { sittingOut } from './layers/consensus/sittingOut.js';
import { type BudgetCounts, createBudgetLayer } from './layers/budget/createBudgetLayer.js';
import { createUpstreamBudget } from './layers/budget/createUpstreamBudget.js';
import { createHedgeLayer } from './layers/hedge/createHedgeLayer.js';
import { createMultiplexer, type MultiplexCounts } from './layers/multiplex/createMultiplexer.js';
import { createPartnerFailover } from './layers/partners/createPartnerFailover.js';
import { createReadRetry } from './layers/retry/createReadRetry.js';
import { createWriteRoute } from './layers/retry/createWriteRoute.js';
import { createRangeLimits } from './layers/split/createRangeLimits.js';
import { createSplitLayer } from './layers/split/createSplitLayer.js';
import { createEventsSplitLayer } from './layers/split/createEventsSplitLayer.js';
import { createSelector } from './layers/select/createSelector.js';
import { createUpstreamSend } from './layers/send/createUpstreamSend.js';
import { createMember, type Member } from './members/createMember.js';
import { createProbe } from './probe/createProbe.js';
import { snapshotMember } from './probe/snapshotMember.js';
import type { CallLayer, FailoverCounts, Forward, Network, NetworkCall } from './types.js';
import { upstreamUnavailable } from './upstreamUnavailable.js';

export type { ClassHealth, Forwarded, ForwardOptions, Network, UpstreamHealth } from './types.js';

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
  /**
   * Where the upstreams' budgets (`rateLimit`) are counted: the limiter every instance shares in
   * Redis, under its own key prefix. Default: a memory limiter of this network (one instance).
   */
  readonly budgets?: Limiter;
}

/**
 * Builds a network over its upstreams: the layers of `README.md` in this folder, composed
 * around one upstream call, with the policies of `settings.policy`:
 *
 * ```
 * forward(call)
 *   -> call-level layers, each a `CallLayer`, outermost first: split (createSplitLayer: the
 *      caller's eth_getLogs caps, wide ranges in sub-ranges), multiplex (createMultiplexer:
 *      identical reads in flight share one call), then consensus
 *   -> writes: createWriteRoute (best upstream, elsewhere only when surely not delivered)
 *      reads:  partners (createPartnerFailover) around the primaries' route:
 *              select (createSelector) -> retry (createReadRetry) -> hedge (createHedgeLayer)
 *              -> budget (createBudgetLayer) -> breaker (createBreakerLayer) -> send (createUpstreamSend)
 * ```
 *
 * - **Routing** by a health score per upstream and method class (`scoreClassOf`), sticking to
 *   the preferred upstream until another is clearly better, a share of reads exploring
 *   (`exploreShare`); upstreams that lack the method are skipped for it; when all lack it the
 *   answer is -32601.
 * - **Circuit breaker** per upstream: open after failures in a row or a high error rate,
 *   half-open on a timer; the trial is one user read or the background probe.
 * - **Failover and retries**: reads go on to the next upstream on the node's trouble, and are
 *   retried `policy.retries` times with backoff within the deadline; writes go to one upstream.
 * - **Heads never go backwards** (`heads/createHeads.ts`).
 * - **Hedging**: a read slower than its upstream's p95 for its class also goes to the next one.
 * - **Background health** (`probe/createProbe.ts`), read by `health()`.
 * - **Partners** (failover protection) when no primary could answer.
 * - **Multiplexing** (`policy.multiplex`): identical multiplexable reads in flight share one
 *   upstream call.
 * - **Budgets** (an upstream's `rateLimit`): counted in `deps.budgets` before each request;
 *   an upstream at its budget is skipped, a call no upstream has room for waits within its
 *   deadline, then -32005; a provider's 429 tightens the budget (auto-tune).
 * - **Block availability** (`layers/availability/`): a state read at a block number goes only to
 *   upstreams whose window (configured, measured at start and on recovery, taught by answers)
 *   holds it; none: -32000 BLOCK_UNAVAILABLE naming the block and the windows.
 * - **Consensus** (`settings.consensus`, `layers/consensus/`): a matching read goes to several
 *   upstreams at once and the agreed answer wins; disputes per `onDispute`; an upstream that
 *   keeps disagreeing sits out.
 *
 * @example
 * const network = createNetwork(settings, ethFamily, upstreams, { partners, log });
 * const { result, upstream } = await network.forward('eth_blockNumber', [], ethMethods.eth_blockNumber);
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
  const failovers: FailoverCounts = { upstream: 0, partner: 0 };

  const onBreakerChange = (m: Member, from: string, to: string) => {
    log?.warn('upstream circuit breaker changed', { network: settings.name, upstream: m.upstream.name, from, to });
    if (to === 'closed') recovered(m);
    if (m.role === 'primary') heads.updateLags();
  };
  /** The budget of the configured upstream (or partner) of that name, when it has a `rateLimit`. */
  const budgetOf = (list: NetworkSettings['upstreams'], name: string) => {
    const limit = list.find((u) => u.name === name)?.rateLimit;
    return limit === undefined ? undefined : createUpstreamBudget(limit, now());
  };
  const primaries = upstreams.map((u) =>
    createMember(u, 'primary', policy, onBreakerChange, budgetOf(settings.upstreams, u.name)),
  );
  const partners = (deps.partners ?? []).map((u) =>
    createMember(u, 'partner', policy, onBreakerChange, budgetOf(settings.partners, u.name)),
  );

  const selector = createSelector(primaries, {
    network: settings.name,
    policy,
    random,
    now,
    log,
    // block availability and consensus sit-outs narrow the route
    narrow: (m, call) => availability.holds(m, call) && !sittingOut(m, now()),
  });
  const heads = createHeads(primaries, selector.invalidate);
  const availability = createBlockAvailability(settings, primaries, partners, heads, log);
  /** A recovered upstream (breaker closed after a trial, or a probe answered after failing) starts clean. */
  function recovered(m: Member): void {
    m.caps.forget();
    for (const c of SCORE_CLASSES) m.stats[c].forgiveErrors();
    m.relearn = true;
    rangeLimits.forget(m.upstream.name);
    selector.invalidate();
  }

  // --- the layers, innermost first -----------------------------------------------------------
  const budgetCounts: BudgetCounts = { waits: 0, exhausted: 0 };
  const budget = createBudgetLayer(settings.name, deps.budgets ?? createMemoryLimiter(), budgetCounts, now, log);
  const send = availability.send(createUpstreamSend(policy, deps.pendingTag));
  const breaker = createBreakerLayer(send, heads, now);
  const hedge = createHedgeLayer(policy.hedge, breaker, selector, budget);
  const readRoute = availability.route(
    createReadRetry({
      network: settings.name,
      chainId: settings.chainId,
      policy,
      selector,
      hedge,
      breaker,
      budget,
      heads,
      failovers,
      now,
      log,
    }),
  );
  const reads = createPartnerFailover(partners, { network: settings.name, selector, breaker, budget, failovers, log })(
    readRoute,
  );
  const writes = createWriteRoute(settings.name, settings.chainId, selector, breaker, budget);
  const routed: Forward = (call) => (call.traits.kind === 'write' ? writes(call) : reads(call));
  const consensusCounts: ConsensusCounts = { disputes: 0, sitOuts: 0 };
  const consensus = createConsensusLayer({
    network: settings.name,
    rules: settings.consensus,
    selector,
    breaker,
    budget,
    counts: consensusCounts,
    holds: availability.holds,
    explain: availability.explain,
    now,
    log,
  });
  const multiplexed: MultiplexCounts = { multiplexed: 0 };
  /** The upstreams' eth_getLogs range limits (configured, and taught by refusals: the split layer). */
  const rangeLimits = createRangeLimits(settings.upstreams);
  /** Call-level layers, outermost first (split, multiplex, consensus: see README.md). */
  // split first: each caller's own caps, and its sub-requests shared like any read
  const split = createSplitLayer({
    concurrency: policy.splitConcurrency,
    limits: rangeLimits,
    head: heads.best,
    network: settings.name,
  });
  // starknet_getEvents walked in sub-ranges, with the gateway's own continuation token
  const eventsSplit = createEventsSplitLayer({
    limits: rangeLimits,
    head: heads.best,
    pendingTag: deps.pendingTag ?? 'pre_confirmed',
    network: settings.name,
  });
  const callLayers: CallLayer[] = [split, eventsSplit, createMultiplexer(policy.multiplex, multiplexed), consensus];
  const forward = callLayers.reduceRight<Forward>((next, layer) => layer(next), routed);

  const probe = createProbe({
    settings,
    family,
    primaries,
    partners,
    heads,
    recovered,
    chainChanged: selector.invalidate,
    learnMore: availability.learn,
    now,
    log,
  });

  return {
    settings,
    family,
    upstreams,
    forward(method, params, traits, raw = false, signal, options) {
      const call: NetworkCall = {
        method,
        params,
        traits,
        cls: scoreClassOf(traits),
        requested: requestedBlock(method, params),
        raw,
        signal,
        options,
        attempts: 0,
      };
      return forward(call);
    },
    async forwardTo(name, method, params, traits, raw = false, signal) {
      const m = primaries.find((p) => p.upstream.name === name) ?? partners.find((p) => p.upstream.name === name);
      if (m === undefined) {
        throw new GatewayError(
          'UPSTREAM_UNAVAILABLE',
          `upstream unavailable for network ${settings.name}: no upstream ${name}`,
          {
            data: { network: settings.name, reason: 'unknown-upstream' },
          },
        );
      }
      const call: NetworkCall = {
        method,
        params,
        traits,
        cls: scoreClassOf(traits),
        requested: requestedBlock(method, params),
        raw,
        signal,
        options: undefined,
        attempts: 0,
      };
      // its budget: waited for once when it has room within a second, else -32005
      if (!m.wrongChain && m.budget !== undefined && breaker.mayAdmit(m)) {
        const wait = await budget.take(m, call);
        if (wait > 0) {
          if (wait > 1_000 || !(await budget.wait(call, wait)) || (await budget.take(m, call)) > 0)
            throw budget.exhausted(call, wait);
        }
      }
      if (m.wrongChain || !breaker.admits(m)) {
        throw upstreamUnavailable(
          settings.name,
          undefined,
          m.wrongChain ? `upstream ${name} is on another chain` : `upstream ${name} is failing (circuit open)`,
        );
      }
      const r = await breaker.attempt(m, call, signal);
      if (r.ok) return { result: r.answer.result, upstream: name };
      throw upstreamUnavailable(settings.name, r.err);
    },
    wsUpstreamUrl() {
      const withWs = selector.ranked('light').filter((m) => m.upstream.wsUrl !== undefined);
      return (withWs.find(selector.usable) ?? withWs[0])?.upstream.wsUrl;
    },
    health: () => [...primaries, ...partners].map((m) => snapshotMember(m, heads, now())),
    failovers: () => ({ upstream: failovers.upstream, partner: failovers.partner }),
    counters: () => ({
      multiplexed: multiplexed.multiplexed,
      budgetWaits: budgetCounts.waits,
      budgetExhausted: budgetCounts.exhausted,
      consensusDisputes: consensusCounts.disputes,
      consensusSitOuts: consensusCounts.sitOuts,
    }),
    servedHead: heads.served,
    probeNow: probe.probeNow,
    async close() {
      probe.stop();
      await Promise.all(partners.map((p) => p.upstream.close()));
    },
  };
}
