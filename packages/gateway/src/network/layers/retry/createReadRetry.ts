import type { UpstreamPolicy } from '../../../config/types.js';
import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import type { UpstreamRpcError } from '../../../errors/GatewayError.js';
import type { Logger } from '../../../log/createLogger.js';
import { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import type { BehindAnswer, NetworkHeads } from '../../heads/createHeads.js';
import { logFailover } from '../../logFailover.js';
import type { Member } from '../../members/createMember.js';
import { methodNotFound } from '../../methodNotFound.js';
import { nothingTried } from '../../nothingTried.js';
import { sleepUnlessAborted } from '../../sleepUnlessAborted.js';
import type { FailoverCounts, Route } from '../../types.js';
import { upstreamUnavailable } from '../../upstreamUnavailable.js';
import type { BreakerLayer } from '../breaker/createBreakerLayer.js';
import type { BudgetLayer } from '../budget/createBudgetLayer.js';
import type { HedgeLayer } from '../hedge/createHedgeLayer.js';
import type { Selector } from '../select/createSelector.js';

/** What the read retry layer is built on. */
/** What a round has tried before its first attempt (shared: never added to). */
const NONE_TRIED: ReadonlySet<Member> = new Set();

export interface ReadRetryDeps {
  readonly network: string;
  readonly chainId: string | undefined;
  readonly policy: Pick<UpstreamPolicy, 'retries'>;
  readonly selector: Selector;
  readonly hedge: HedgeLayer;
  readonly breaker: Pick<BreakerLayer, 'admits' | 'mayAdmit'>;
  readonly budget: BudgetLayer;
  readonly heads: NetworkHeads;
  readonly failovers: FailoverCounts;
  readonly now: () => number;
  readonly log?: Logger | undefined;
}

/**
 * The retry layer of reads, over the primaries: the select layer's order, each upstream tried
 * once per round (through the hedge layer) until one answers; an answer the classifier calls
 * the node's trouble goes on to the next upstream, the client's own error (a revert) comes back
 * at once. After a round where a node was in trouble, the round is repeated `policy.retries`
 * times with backoff (50 ms doubling, or the upstream's `Retry-After`), within the request's
 * deadline, never after a timeout (that node already took its time) nor for more than 5 s. An
 * answer showing a head below the one a client already saw is held back while another upstream
 * may be at the head (`NetworkHeads.behind`, `settleBehind`). When every upstream lacks the
 * method the answer is -32601; when none answered, the outcome says whether partners may try
 * (none answered that it lacks the method or the data). An upstream at its budget (`rateLimit`)
 * is skipped like a busy one; when every upstream that could take the call is at its budget,
 * the call waits for the soonest within its deadline, and gets -32005 only when none has room
 * in time.
 *
 * @example
 * const route = createReadRetry({ network: 'mainnet', chainId, policy, selector, hedge, breaker, heads, failovers, now });
 * const outcome = await route(call);
 */
export function createReadRetry(deps: ReadRetryDeps): Route {
  const { network, chainId, policy, selector, hedge, breaker, budget, heads, failovers, now, log } = deps;
  return async (call) => {
    const { signal } = call;
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    let firstFailed: { m: Member; reason: string } | undefined;
    let retryAfter = 0;
    // a node that timed out already took its time: no retry round after one
    let timedOut = false;
    // an answer showing a head below one already served, kept in case no upstream has better
    let behind: BehindAnswer | undefined;
    // a node answered that it lacks the method or the data (not an outage)
    let nodeAnswered = false;
    const list = selector.route(call);
    // the upstreams that answered, behind the head served (to tell a lagging node from a chain gone back)
    let answeredBehind: Set<Member> | undefined;
    for (let round = 0; round <= policy.retries; round++) {
      let triedAny = false;
      // a round is worth repeating only when a node was in trouble (not when nodes lack the data)
      let troubled = false;
      // the upstreams tried in this round (made on the first that did not answer for good)
      let tried: Set<Member> | undefined;
      // the soonest an upstream skipped for its budget has room again
      let budgetWaitMs: number | undefined;
      for (let i = 0; i < list.length; i++) {
        const m = list[i]!;
        if (tried?.has(m) || !selector.takes(m, call.method)) continue;
        if (m.budget !== undefined) {
          // at its budget: skipped like a busy node (its breaker's trial is not taken for it)
          if (!breaker.mayAdmit(m)) continue;
          const wait = await budget.take(m, call);
          if (wait > 0) {
            budgetWaitMs = budgetWaitMs === undefined ? wait : Math.min(budgetWaitMs, wait);
            continue;
          }
        }
        if (!breaker.admits(m)) continue;
        triedAny = true;
        const next = hedge.backup(list, i, tried ?? NONE_TRIED, call.method);
        const r = await hedge.attempt(m, next, call, signal);
        const by = r.by;
        const head = r.ok ? heads.behind(call, by, r.answer.result) : undefined;
        if (r.ok && head === undefined) {
          if (by !== list[0]) failovers.upstream += 1;
          if (firstFailed !== undefined && firstFailed.m !== by)
            logFailover(log, network, call, firstFailed.m, by, firstFailed.reason);
          return { ok: true, forwarded: { result: r.answer.result, upstream: by.upstream.name } };
        }
        tried ??= new Set();
        tried.add(m);
        if (r.hedgedOn !== undefined) tried.add(r.hedgedOn);
        if (r.ok) {
          // behind what a client already saw: another upstream may be at the head
          const result = r.answer.result;
          if (behind === undefined || head! > behind.head) behind = { result, by, head: head! };
          answeredBehind ??= new Set();
          answeredBehind.add(by);
          firstFailed ??= { m: by, reason: `answered head ${head}, below ${heads.served()} already served` };
          continue;
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
      if (!triedAny && budgetWaitMs !== undefined) {
        // every upstream that could take it is at its budget: wait for the soonest within the
        // deadline (not a retry round), else -32005 (partners may still take it)
        if (await budget.wait(call, budgetWaitMs)) {
          round -= 1;
          continue;
        }
        return {
          ok: false,
          error: budget.exhausted(call, budgetWaitMs),
          partnersMayTry: true,
          firstFailed,
          preferred: list[0],
        };
      }
      if (!triedAny || !troubled || timedOut || round === policy.retries) break;
      const wait = Math.max(50 * 2 ** round, retryAfter);
      const deadline = call.options?.deadline;
      if (deadline !== undefined && now() + wait > deadline - 100) break;
      if (wait > 5_000) break;
      await sleepUnlessAborted(wait, signal);
      if (signal?.aborted) throw new ClientGoneError();
      retryAfter = 0;
    }
    if (behind !== undefined) {
      if (behind.by !== list[0]) failovers.upstream += 1;
      const everyone = list.filter((m) => selector.takes(m, call.method)).every((m) => answeredBehind?.has(m) === true);
      return { ok: true, forwarded: heads.settleBehind(call, behind, everyone) };
    }
    if (selector.allLack(list, call.method)) throw methodNotFound(network, call.method);
    return {
      ok: false,
      error: upstreamUnavailable(network, last, last === undefined ? nothingTried(list, chainId) : undefined),
      partnersMayTry: !nodeAnswered,
      firstFailed,
      preferred: list[0],
    };
  };
}
