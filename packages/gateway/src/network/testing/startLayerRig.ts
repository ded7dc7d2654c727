import type { UpstreamPolicy, UpstreamRateLimit } from '../../config/types.js';
import { validateConfig } from '../../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../../embedded/startAnvil.js';
import type { MethodTraits } from '../../families/types.js';
import { createFaultUpstream, type FaultUpstream } from '../../test-support/createFaultUpstream.js';
import { createHttpUpstream, type HttpUpstream } from '../../upstream/createHttpUpstream.js';
import { requestedBlock } from '../../upstream/requestedBlock.js';
import { scoreClassOf } from '../../upstream/scoreClassOf.js';
import { createHeads, type NetworkHeads } from '../heads/createHeads.js';
import { createMemoryLimiter } from '../../limits/createMemoryLimiter.js';
import type { Limiter } from '../../limits/Limiter.js';
import { type BreakerLayer, createBreakerLayer } from '../layers/breaker/createBreakerLayer.js';
import { type BudgetCounts, type BudgetLayer, createBudgetLayer } from '../layers/budget/createBudgetLayer.js';
import { createUpstreamBudget } from '../layers/budget/createUpstreamBudget.js';
import { createHedgeLayer, type HedgeLayer } from '../layers/hedge/createHedgeLayer.js';
import { createSelector, type Selector } from '../layers/select/createSelector.js';
import { createUpstreamSend } from '../layers/send/createUpstreamSend.js';
import { createMember, type Member } from '../members/createMember.js';
import type { FailoverCounts, ForwardOptions, NetworkCall, Send } from '../types.js';

/** The parts of one network's layers over the rig's fault upstreams, built as createNetwork builds them. */
export interface LayerParts {
  readonly policy: UpstreamPolicy;
  readonly members: Member[];
  readonly partners: Member[];
  readonly selector: Selector;
  readonly heads: NetworkHeads;
  readonly send: Send;
  readonly breaker: BreakerLayer;
  readonly hedge: HedgeLayer;
  readonly budget: BudgetLayer;
  readonly budgetCounts: BudgetCounts;
  readonly failovers: FailoverCounts;
  /** A call as `network.forward` builds it. */
  call(
    method: string,
    params: unknown,
    traits: MethodTraits,
    options?: ForwardOptions,
    signal?: AbortSignal,
  ): NetworkCall;
}

/** A real anvil behind fault upstreams, for the network layers' own tests. */
export interface LayerRig {
  readonly anvil: EmbeddedProcess;
  /** Fault upstreams in front of the anvil: `primaries` first, then `partners`. */
  readonly faults: FaultUpstream[];
  /** The layers' parts over the faults (`one`, `two`… and partners `p1`…), with this policy (no probe, no exploring, no hedge unless set). */
  parts(
    policy?: Partial<UpstreamPolicy>,
    options?: {
      now?: () => number;
      random?: () => number;
      /** Budgets by upstream name (`one`, `p1`…), and where they are counted (default: in memory). */
      rateLimits?: Readonly<Record<string, UpstreamRateLimit>>;
      limiter?: Limiter;
      /** Told of each request as it is sent (the upstream's name, epoch ms). */
      onSend?: (upstream: string, at: number) => void;
    },
  ): LayerParts;
  /** Every fault upstream answers again (`pass`). */
  reset(): void;
  close(): Promise<void>;
}

const NAMES = ['one', 'two', 'three', 'four'];

/**
 * Starts a real anvil and `primaries + partners` fault upstreams in front of it
 * (`createFaultUpstream`), and builds a network's layers over them, so each layer can be tested
 * alone against real answers and real failures.
 *
 * @example
 * const rig = await startLayerRig(2);
 * const { breaker, members, call } = rig.parts({ breakerFailures: 2 });
 * await breaker.attempt(members[0], call('eth_chainId', [], ethMethods.eth_chainId), undefined);
 */
export async function startLayerRig(primaries = 2, partnerCount = 0): Promise<LayerRig> {
  const anvil = await startAnvil();
  const faults = await Promise.all(
    Array.from({ length: primaries + partnerCount }, () => createFaultUpstream(anvil.http)),
  );
  const opened: HttpUpstream[] = [];
  return {
    anvil,
    faults,
    parts(overrides = {}, options = {}) {
      const now = options.now ?? Date.now;
      const policy = validateConfig({
        networks: [
          {
            name: 'chain',
            family: 'eth',
            pathPrefix: '/chain',
            upstreams: [{ name: 'x', http: 'http://127.0.0.1:1' }],
            policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: false, ...overrides },
          },
        ],
      }).networks[0]!.policy;
      const upstream = (i: number, name: string) => {
        const u = createHttpUpstream({ name, http: faults[i]!.url, timeoutMs: 10_000 });
        opened.push(u);
        return u;
      };
      let heads: NetworkHeads | undefined;
      const onChange = (m: Member) => {
        if (m.role === 'primary') heads?.updateLags();
      };
      const budgetFor = (name: string) => {
        const limit = options.rateLimits?.[name];
        return limit === undefined ? undefined : createUpstreamBudget(limit, now());
      };
      const members = Array.from({ length: primaries }, (_, i) =>
        createMember(upstream(i, NAMES[i]!), 'primary', policy, onChange, budgetFor(NAMES[i]!)),
      );
      const partners = Array.from({ length: partnerCount }, (_, i) =>
        createMember(upstream(primaries + i, `p${i + 1}`), 'partner', policy, onChange, budgetFor(`p${i + 1}`)),
      );
      const selector = createSelector(members, {
        network: 'chain',
        policy,
        random: options.random ?? (() => 0.99),
        now,
      });
      heads = createHeads(members, selector.invalidate);
      const sendNow = createUpstreamSend(policy, undefined);
      const onSend = options.onSend;
      const send: Send =
        onSend === undefined
          ? sendNow
          : (m, c, signal) => {
              onSend(m.upstream.name, Date.now());
              return sendNow(m, c, signal);
            };
      const breaker = createBreakerLayer(send, heads, now);
      const budgetCounts: BudgetCounts = { waits: 0, exhausted: 0 };
      const budget = createBudgetLayer('chain', options.limiter ?? createMemoryLimiter({ now }), budgetCounts, now);
      const hedge = createHedgeLayer(policy.hedge, breaker, selector, budget);
      return {
        policy,
        members,
        partners,
        selector,
        heads,
        send,
        breaker,
        hedge,
        budget,
        budgetCounts,
        failovers: { upstream: 0, partner: 0 },
        call: (method, params, traits, opts, signal) => ({
          method,
          params,
          traits,
          cls: scoreClassOf(traits),
          requested: requestedBlock(method, params),
          raw: false,
          signal,
          options: opts,
          attempts: 0,
        }),
      };
    },
    reset() {
      for (const f of faults) f.script(() => ({ kind: 'pass' }));
    },
    async close() {
      await Promise.all(opened.splice(0).map((u) => u.close()));
      await Promise.all(faults.map((f) => f.close()));
      await anvil.stop();
    },
  };
}
