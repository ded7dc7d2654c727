import type { ConsensusRule } from '../../../config/types.js';
import { GatewayError, type UpstreamRpcError } from '../../../errors/GatewayError.js';
import type { Logger } from '../../../log/createLogger.js';
import type { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import type { Member } from '../../members/createMember.js';
import type { CallLayer, Forwarded, NetworkCall } from '../../types.js';
import { upstreamUnavailable } from '../../upstreamUnavailable.js';
import { withAttempts } from '../../withAttempts.js';
import type { BreakerLayer } from '../breaker/createBreakerLayer.js';
import type { BudgetLayer } from '../budget/createBudgetLayer.js';
import type { Selector } from '../select/createSelector.js';
import { comparableAnswer } from './comparableAnswer.js';
import { consensusRuleFor } from './consensusRuleFor.js';
import { sittingOut } from './sittingOut.js';

/** What the consensus layer counted (mutable: it counts into it). */
export interface ConsensusCounts {
  /** Calls whose participants did not agree. */
  disputes: number;
  /** Upstreams sent to sit out. */
  sitOuts: number;
}

/** What the consensus layer is built on. */
export interface ConsensusDeps {
  readonly network: string;
  readonly rules: readonly ConsensusRule[];
  readonly selector: Pick<Selector, 'route' | 'takes'>;
  readonly breaker: Pick<BreakerLayer, 'admits' | 'mayAdmit' | 'attempt'>;
  readonly budget: Pick<BudgetLayer, 'take'>;
  readonly counts: ConsensusCounts;
  /** Block availability: whether `m` holds the block the call reads state at (default: every one does). */
  readonly holds?: ((m: Member, call: NetworkCall) => boolean) | undefined;
  /** The client's error when no participant answered (block availability's `BLOCK_UNAVAILABLE`). */
  readonly explain?: ((call: NetworkCall, err: Error) => Error) | undefined;
  readonly now: () => number;
  readonly log?: Logger | undefined;
}

/** One participant's vote: the comparable text of its answer, and the answer. */
interface Vote {
  readonly m: Member;
  readonly key: string;
  readonly result?: unknown;
  readonly error?: UpstreamRpcError;
}

/**
 * The consensus layer (`consensus:` of a network): a read whose method matches a rule goes to
 * `participants` upstreams at once (the select layer's order: block availability applies, those
 * sitting out and those at their budget or with an open breaker are left out), and the answer is
 * the one `agree` of them gave, compared by `comparableAnswer` (the rule's `ignoreFields` left
 * out, keys sorted, hex in lower case); a JSON-RPC error a node answered about the request (a
 * revert) is an answer too, and failed upstreams do not vote. It answers as soon as `agree`
 * participants agree. Otherwise (a dispute, counted) `onDispute` decides: `error` gives -32603
 * `CONSENSUS_DISPUTE` (also when fewer than `agree` upstreams could take part), `mostCommon` the
 * answer most gave (a tie: the best-ranked upstream's), `bestHead` the answer of the
 * participant at the highest head. An upstream whose answer differs from an agreed one
 * `sitOutAfter` times in a row sits out `sitOutMs` (no reads at all, unless every upstream is;
 * logged, counted, in `/health`); agreeing resets its count. Writes, and methods no rule names,
 * pass to `next` untouched.
 *
 * @example
 * const consensus = createConsensusLayer({ network: 'mainnet', rules: settings.consensus, selector, breaker, budget, counts, now: Date.now });
 * const forward = consensus(routed);
 */
export function createConsensusLayer(deps: ConsensusDeps): CallLayer {
  const { network, rules, selector, breaker, budget, counts, now, log, holds, explain } = deps;
  return (next) => {
    if (rules.length === 0) return next;
    return (call) => {
      if (call.traits.kind !== 'read') return next(call);
      const rule = consensusRuleFor(rules, call.method);
      return rule === undefined ? next(call) : agree(call, rule, next);
    };
  };

  async function agree(call: NetworkCall, rule: ConsensusRule, next: (c: NetworkCall) => Promise<Forwarded>) {
    const t = now();
    const chosen: Member[] = [];
    for (const m of selector.route(call)) {
      if (chosen.length === rule.participants) break;
      if (!selector.takes(m, call.method) || sittingOut(m, t) || !breaker.mayAdmit(m)) continue;
      if (holds !== undefined && !holds(m, call)) continue;
      if (m.budget !== undefined && (await budget.take(m, call)) > 0) continue;
      if (breaker.admits(m)) chosen.push(m);
    }
    // nobody to ask: the usual route says why (every breaker open, every upstream lacks the
    // method or the block…)
    if (chosen.length === 0) return next(call);
    if (chosen.length < rule.agree && rule.onDispute === 'error') {
      counts.disputes += 1;
      throw dispute(call, rule, chosen.length, [], `only ${chosen.length} upstream(s) could take part`);
    }
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    const votes: Vote[] = [];
    const groups = new Map<string, Vote[]>();
    const sub = (): NetworkCall => ({ ...call, raw: false, attempts: 0 });
    let winner: string | undefined;
    let decided: (() => void) | undefined;
    const early = new Promise<void>((resolve) => {
      decided = resolve;
    });
    // one request to each participant, all sent now: counted at once (an early answer says so)
    call.attempts += chosen.length;
    const settled = chosen.map(async (m) => {
      const r = await breaker.attempt(m, sub(), call.signal);
      if (r.ok)
        return vote({
          m,
          key: `r:${comparableAnswer(r.answer.result, call.method, rule.ignoreFields)}`,
          result: r.answer.result,
        });
      last = r.err;
      if (r.verdict.kind === 'client') {
        const e = r.err as UpstreamRpcError;
        return vote({
          m,
          key: `e:${comparableAnswer({ code: e.code, message: e.message, data: e.data }, call.method, {})}`,
          error: e,
        });
      }
    });
    function vote(v: Vote): void {
      votes.push(v);
      const g = groups.get(v.key) ?? [];
      g.push(v);
      groups.set(v.key, g);
      if (winner === undefined && g.length >= rule.agree) {
        winner = v.key;
        decided?.();
      }
    }
    const all = Promise.allSettled(settled);
    await Promise.race([early, all]);
    // a caller gone away, or a failure that is not the upstream's: thrown as the route would
    if (winner === undefined) {
      for (const s of await all) if (s.status === 'rejected') throw withAttempts(s.reason, call.attempts);
    }
    if (winner !== undefined) {
      const key = winner;
      // the late ones still count for sit-outs
      void all.then(() => judge(call, rule, key, votes));
      return answer(call, groups.get(key)!);
    }
    if (votes.length === 0) {
      const err = upstreamUnavailable(network, last);
      throw withAttempts(explain === undefined ? err : explain(call, err), call.attempts);
    }
    counts.disputes += 1;
    const summary = [...groups.values()].map((g) => g.map((v) => v.m.upstream.name));
    log?.warn('consensus dispute', {
      network,
      method: call.method,
      rule: rule.methods,
      onDispute: rule.onDispute,
      answers: summary,
    });
    if (rule.onDispute === 'error') {
      const why =
        groups.size > 1 ? 'the upstreams disagree' : `only ${votes.length} of ${chosen.length} participants answered`;
      throw dispute(call, rule, chosen.length, summary, why);
    }
    const rank = (v: Vote) => chosen.indexOf(v.m);
    let pick: Vote[];
    if (rule.onDispute === 'mostCommon') {
      pick = [...groups.values()].sort(
        (a, b) => b.length - a.length || Math.min(...a.map(rank)) - Math.min(...b.map(rank)),
      )[0]!;
    } else {
      const best = [...votes].sort((a, b) => (b.m.head ?? -1) - (a.m.head ?? -1) || rank(a) - rank(b))[0]!;
      pick = groups.get(best.key)!;
    }
    return answer(call, pick);
  }

  /** The agreed (or picked) answer for the client: its result, or the node's error about the request. */
  function answer(call: NetworkCall, group: readonly Vote[]): Forwarded {
    const first = group[0]!;
    if (first.error !== undefined) throw withAttempts(first.error, call.attempts);
    return { result: first.result, upstream: first.m.upstream.name, attempts: call.attempts };
  }

  /** After an agreed answer: those that answered otherwise lose a dispute, those that agreed start again. */
  function judge(call: NetworkCall, rule: ConsensusRule, winner: string, votes: readonly Vote[]): void {
    for (const v of votes) {
      if (v.key === winner) {
        v.m.disputesLost = 0;
        continue;
      }
      v.m.disputesLost += 1;
      if (v.m.disputesLost >= rule.sitOutAfter && !sittingOut(v.m, now())) {
        v.m.sitOutUntil = now() + rule.sitOutMs;
        counts.sitOuts += 1;
        log?.warn('upstream sits out: it disagreed with the consensus', {
          network,
          upstream: v.m.upstream.name,
          method: call.method,
          disputesLost: v.m.disputesLost,
          sitOutMs: rule.sitOutMs,
        });
      }
    }
  }

  function dispute(
    call: NetworkCall,
    rule: ConsensusRule,
    participants: number,
    answers: readonly (readonly string[])[],
    why: string,
  ): unknown {
    return withAttempts(
      new GatewayError(
        'CONSENSUS_DISPUTE',
        `no consensus for ${call.method} on network ${network}: ${why} (${rule.agree} of ${rule.participants} must agree); retry`,
        {
          data: {
            network,
            reason: 'consensus-dispute',
            agree: rule.agree,
            participants,
            answers: answers.map((upstreams) => ({ upstreams })),
          },
        },
      ),
      call.attempts,
    );
  }
}
