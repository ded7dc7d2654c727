import type { Member } from '../../members/createMember.js';
import type { Attempt, NetworkCall } from '../../types.js';
import type { BreakerLayer } from '../breaker/createBreakerLayer.js';
import type { BudgetLayer } from '../budget/createBudgetLayer.js';
import type { Selector } from '../select/createSelector.js';

/**
 * One attempt, hedged or not: the attempt whose answer counts (`by` says whose), and the second
 * upstream it went to, set only when it was hedged (an attempt that was not comes back as the
 * breaker layer made it: nothing more is allocated for it).
 */
export type HedgedAttempt = Attempt & { readonly hedgedOn?: Member };

/** The hedge layer: a read on one upstream, sent to a second one when the first is slow. */
export interface HedgeLayer {
  /**
   * The upstream a read on `list[i]` would be hedged on: the next one in `list` not tried yet,
   * serving the method, with its breaker closed and not further behind (an answer with older
   * data never wins a race); undefined when hedging is off.
   */
  backup(list: readonly Member[], i: number, tried: ReadonlySet<Member>, method: string): Member | undefined;
  /**
   * A read on `m`, hedged on `next` once `m` is slower than its own p95 for the call's class (at
   * least 20 ms; the backup must have room in its budget): the first success (or client error)
   * wins and the other request is abandoned;
   * when one fails, the other's outcome is awaited.
   */
  attempt(
    m: Member,
    next: Member | undefined,
    call: NetworkCall,
    signal: AbortSignal | undefined,
  ): Promise<HedgedAttempt>;
}

/**
 * The hedge layer of a network (`policy.hedge`), above the breaker layer.
 *
 * @example
 * const hedge = createHedgeLayer(true, breaker, selector, budget);
 * const { by, hedgedOn, ...attempt } = await hedge.attempt(list[0], hedge.backup(list, 0, new Set(), call.method), call, signal);
 */
export function createHedgeLayer(
  enabled: boolean,
  breaker: BreakerLayer,
  selector: Pick<Selector, 'takes'>,
  budget: Pick<BudgetLayer, 'take'>,
): HedgeLayer {
  return {
    backup(list, i, tried, method) {
      if (!enabled) return undefined;
      const m = list[i]!;
      for (let j = i + 1; j < list.length; j++) {
        const c = list[j]!;
        // a hedge never goes to a node further behind (it could answer with older data)
        if (!tried.has(c) && selector.takes(c, method) && c.breaker.state() === 'closed' && c.lag <= m.lag) return c;
      }
      return undefined;
    },
    attempt(m, next, call, signal) {
      const p95 = enabled && next !== undefined ? m.stats[call.cls].p95Ms() : undefined;
      // not hedged (the common case): the breaker's own attempt, no frame or object of this layer
      if (p95 === undefined || next === undefined) return breaker.attempt(m, call, signal);
      return hedged(m, next, p95, call, signal);
    },
  };

  async function hedged(
    m: Member,
    next: Member,
    p95: number,
    call: NetworkCall,
    signal: AbortSignal | undefined,
  ): Promise<HedgedAttempt> {
    const first = new AbortController();
    let second: AbortController | undefined;
    const onClientGone = () => {
      first.abort();
      second?.abort();
    };
    signal?.addEventListener('abort', onClientGone, { once: true });
    try {
      const a = breaker.attempt(m, call, first.signal);
      let timer: NodeJS.Timeout | undefined;
      const hedge = new Promise<'hedge'>((resolve) => {
        // at least 20 ms: below that a busy event loop alone would double the traffic
        timer = setTimeout(() => resolve('hedge'), Math.max(20, p95));
      });
      const winner = await Promise.race([a, hedge]);
      clearTimeout(timer);
      if (winner !== 'hedge') return winner;
      // the backup must serve the method, be admitted and have room in its budget
      // (awaited inside the try: the client's abort reaches the first request until it ends)
      if (!selector.takes(next, call.method) || !breaker.mayAdmit(next) || (await budget.take(next, call)) > 0)
        return await a;
      if (!breaker.admits(next)) return await a;
      second = new AbortController();
      const b = breaker.attempt(next, call, second.signal);
      // the first success wins; if one fails, wait for the other
      const settled = await new Promise<Attempt>((resolve, reject) => {
        let pending = 2;
        let failed: Attempt | undefined;
        let thrown: unknown;
        const finish = () => {
          if (pending > 0) return;
          if (failed !== undefined) resolve(failed);
          else reject(thrown);
        };
        const take = (r: Attempt) => {
          pending -= 1;
          if (r.ok || r.verdict.kind === 'client') {
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
      // both were sent: the one still running is abandoned (an attempt that ended needs no
      // abort, and an abort costs an AbortError with its stack on every answered read)
      if (second !== undefined) {
        first.abort();
        second.abort();
      }
    }
  }
}
