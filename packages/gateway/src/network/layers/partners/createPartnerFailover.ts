import type { Logger } from '../../../log/createLogger.js';
import { logFailover } from '../../logFailover.js';
import type { Member } from '../../members/createMember.js';
import type { FailoverCounts, Forward, Forwarded, NetworkCall, Route, RouteOutcome } from '../../types.js';
import { withAttempts } from '../../withAttempts.js';
import type { BreakerLayer } from '../breaker/createBreakerLayer.js';
import type { BudgetLayer } from '../budget/createBudgetLayer.js';
import type { Selector } from '../select/createSelector.js';

/** What the partners layer is built on. */
export interface PartnerFailoverDeps {
  readonly network: string;
  readonly selector: Pick<Selector, 'takes'>;
  readonly breaker: BreakerLayer;
  readonly budget: Pick<BudgetLayer, 'take'>;
  readonly failovers: FailoverCounts;
  readonly log?: Logger | undefined;
}

/**
 * The partners layer (failover protection), around the primaries' route: when no primary could
 * answer a read and none said it lacks the method or the data, a call that may go to partners
 * (its method is `forwardable` and `options.partners`: the key's plan has failover protection
 * and the request asked) goes to the partner providers in order, each through its own breaker
 * and budget;
 * the first answer is the client's (`failover: 'partner'`, logged and counted), a client error
 * from a partner too. When no partner answers, the client gets the primaries' error. The
 * answer (or the error) carries the requests sent upstream for it (`attempts`).
 *
 * @example
 * const forward = createPartnerFailover(partners, { network: 'mainnet', selector, breaker, failovers })(route);
 */
export function createPartnerFailover(
  partners: readonly Member[],
  deps: PartnerFailoverDeps,
): (route: Route) => Forward {
  const { network, selector, breaker, budget, failovers, log } = deps;
  return (route) => async (call) => {
    let outcome: RouteOutcome;
    try {
      outcome = await route(call);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
    if (outcome.ok) {
      outcome.forwarded.attempts = call.attempts;
      return outcome.forwarded;
    }
    try {
      return await toPartners(call, outcome);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
  };

  /** The primaries' failure: a partner's answer when one may and can give it, else the primaries' error. */
  async function toPartners(call: NetworkCall, outcome: RouteOutcome & { ok: false }): Promise<Forwarded> {
    // partners only while every primary is failing or open (not when nodes answered they lack it)
    const mayGo = call.traits.forwardable === true && call.options?.partners === true;
    if (mayGo && partners.length > 0 && outcome.partnersMayTry) {
      for (const p of partners) {
        if (!selector.takes(p, call.method) || !breaker.mayAdmit(p)) continue;
        if (p.budget !== undefined && (await budget.take(p, call)) > 0) continue;
        if (!breaker.admits(p)) continue;
        const r = await breaker.attempt(p, call, call.signal);
        if (r.ok) {
          failovers.partner += 1;
          logFailover(
            log,
            network,
            call,
            outcome.firstFailed?.m ?? outcome.preferred ?? p,
            p,
            outcome.firstFailed?.reason ?? 'every upstream is open',
            true,
          );
          return { result: r.answer.result, upstream: p.upstream.name, failover: 'partner', attempts: call.attempts };
        }
        if (r.verdict.kind === 'client') throw r.err;
      }
    }
    throw outcome.error;
  }
}
