import type { UpstreamPolicy } from '../../../config/types.js';
import type { Logger } from '../../../log/createLogger.js';
import { SCORE_CLASSES, type ScoreClass } from '../../../upstream/scoreClassOf.js';
import type { Member } from '../../members/createMember.js';
import type { NetworkCall } from '../../types.js';

/** The "select" layer: which upstreams a call may go to, best first. */
export interface Selector {
  /**
   * The order one read tries the primaries in: the class's ranking (those at the best head
   * first when the call follows the head), and now and then (`exploreShare`) another upstream
   * first, so every score stays fresh.
   */
  route(call: NetworkCall): Member[];
  /** The class's ranking (`headFirst`: those at the best head first), made at most every 100 ms or when lags change. */
  ranked(cls: ScoreClass, headFirst?: boolean): Member[];
  /** Forgets the rankings (a lag, a breaker or a chain changed): the next call re-ranks. */
  invalidate(): void;
  /** On the network's chain and its breaker not open. */
  usable(m: Member): boolean;
  /** Whether `m` may get `method`: on the network's chain and serving it (it did not answer -32601 for it lately). */
  takes(m: Member, method: string): boolean;
  /** Every upstream of `list` on the network's chain lacks `method` (the answer is then -32601). */
  allLack(list: readonly Member[], method: string): boolean;
}

/** What the selector needs besides the primaries. */
export interface SelectorDeps {
  readonly network: string;
  readonly policy: Pick<UpstreamPolicy, 'exploreShare'>;
  readonly random: () => number;
  readonly now: () => number;
  readonly log?: Logger | undefined;
  /**
   * Whether `m` may be asked `call` at all (block availability: it holds the block; consensus:
   * it is not sitting out). The route leaves out those it refuses, unless it refuses every one.
   */
  readonly narrow?: ((m: Member, call: NetworkCall) => boolean) | undefined;
}

/**
 * The select layer of a network: a ranking of the primaries per method class by their health
 * score (`createUpstreamStats`: latency, errors, head lag), re-ranked at most every 100 ms,
 * sticking to the class's preferred upstream until another is clearly better (a third faster);
 * upstreams that lack a method (learned from -32601, `createLearnedCapabilities`) or sit on
 * another chain are never offered it. A share of reads (`exploreShare`) goes first to another
 * upstream that is not open and not behind. A change of preferred upstream is logged.
 *
 * Block availability and consensus sit-outs narrow the list (`deps.narrow`); budgets skip an
 * upstream in the retry layer.
 *
 * @example
 * const selector = createSelector(primaries, { network: 'mainnet', policy, random: Math.random, now: Date.now });
 * const order = selector.route(call); // try in this order
 */
export function createSelector(primaries: readonly Member[], deps: SelectorDeps): Selector {
  const { network, policy, random, now, log, narrow } = deps;
  const usable = (m: Member) => !m.wrongChain && m.breaker.state() !== 'open';
  /** Per class: the ranking, the same with those at the best head first, when it was made, the preferred upstream. */
  const rankings = new Map<
    ScoreClass,
    { order: Member[]; headFirst: Member[]; at: number; preferred: Member | undefined }
  >(
    SCORE_CLASSES.map((c) => [
      c,
      { order: primaries as Member[], headFirst: primaries as Member[], at: 0, preferred: primaries[0] },
    ]),
  );
  const invalidate = (): void => {
    for (const r of rankings.values()) r.at = 0;
  };
  const ranked = (cls: ScoreClass, headFirst = false): Member[] => {
    const r = rankings.get(cls)!;
    if (primaries.length < 2) return primaries as Member[];
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
        network,
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
  const serves = (m: Member, method: string) => !m.caps.lacks(method, now());
  const takes = (m: Member, method: string) => !m.wrongChain && serves(m, method);
  const allLack = (list: readonly Member[], method: string) => {
    let onChain = 0;
    for (const m of list) {
      if (m.wrongChain) continue;
      if (serves(m, method)) return false;
      onChain += 1;
    }
    return onChain > 0;
  };

  return {
    route(call) {
      const followsHead =
        call.traits.cache === 'head' || (call.requested?.kind === 'tag' && call.requested.tag !== 'earliest');
      let list = ranked(call.cls, followsHead);
      if (narrow !== undefined) {
        // a copy only when one is left out (the common case allocates nothing)
        let refused = false;
        for (const m of list) if (!narrow(m, call)) refused = true;
        if (refused) {
          const narrowed = list.filter((m) => narrow(m, call));
          if (narrowed.length > 0) list = narrowed;
        }
      }
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
    },
    ranked,
    invalidate,
    usable,
    takes,
    allLack,
  };
}
