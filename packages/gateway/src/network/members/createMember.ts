import type { UpstreamPolicy } from '../../config/types.js';
import { type BreakerState, type CircuitBreaker, createCircuitBreaker } from '../../upstream/createCircuitBreaker.js';
import type { HttpUpstream } from '../../upstream/createHttpUpstream.js';
import { createLearnedCapabilities, type LearnedCapabilities } from '../../upstream/createLearnedCapabilities.js';
import { createUpstreamStats, type UpstreamStats } from '../../upstream/createUpstreamStats.js';
import type { ScoreClass } from '../../upstream/scoreClassOf.js';
import type { BlockWindow } from '../layers/availability/BlockWindow.js';
import type { UpstreamBudget } from '../layers/budget/createUpstreamBudget.js';

/**
 * One upstream of a network and everything the layers know of it: its scores per method class,
 * its breaker, the methods it lacks, its head and lag, what the background probe learned. The
 * layers read and update it; only `createNetwork` makes them.
 */
export interface Member {
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
  /** Its request budget (`rateLimit`), when it has one. */
  readonly budget: UpstreamBudget | undefined;
  /** The blocks it serves state for (`layers/availability/`): configured, measured, or taught by its answers. */
  window: BlockWindow;
  /** Consensus (`layers/consensus/`): disputes in a row it was on the losing side of. */
  disputesLost: number;
  /** Consensus: it takes no traffic until then (epoch ms), after losing `sitOutAfter` disputes in a row. */
  sitOutUntil: number | undefined;
}

/**
 * Makes the member of one upstream, with a breaker as the network's policy says (open after
 * `breakerFailures` failures in a row or half of the last 20 failing, for `breakerOpenMs`,
 * doubling up to 30 s) and capabilities forgotten after `capabilityTtlMs`. `onBreakerChange`
 * hears every change of its breaker (the network logs it and re-ranks). `budget` is its request
 * budget (`rateLimit`), when it has one.
 *
 * @example
 * const m = createMember(upstream, 'primary', settings.policy, (m, from, to) => log.warn('breaker', { from, to }));
 */
export function createMember(
  upstream: HttpUpstream,
  role: Member['role'],
  policy: UpstreamPolicy,
  onBreakerChange: (m: Member, from: BreakerState, to: BreakerState) => void,
  budget?: UpstreamBudget,
): Member {
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
      (from, to) => onBreakerChange(m, from, to),
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
    budget,
    window: { kind: 'unknown' },
    disputesLost: 0,
    sitOutUntil: undefined,
  };
  return m;
}
