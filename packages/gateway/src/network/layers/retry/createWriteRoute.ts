import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import { methodNotFound } from '../../methodNotFound.js';
import { nothingTried } from '../../nothingTried.js';
import type { Forward, Forwarded, NetworkCall } from '../../types.js';
import { upstreamUnavailable } from '../../upstreamUnavailable.js';
import { withAttempts } from '../../withAttempts.js';
import type { BreakerLayer } from '../breaker/createBreakerLayer.js';
import type { BudgetLayer } from '../budget/createBudgetLayer.js';
import type { Selector } from '../select/createSelector.js';

/**
 * The retry rule of writes: a write goes to the best upstream of its class, never retried nor
 * hedged, and to the next upstream only when the first surely did not receive it (it could
 * not connect, or answered that it lacks the method). A node's JSON-RPC answer to a write is
 * final (it may have acted on it). Never to partners. An upstream at its budget is skipped;
 * when all are, the write waits for the soonest within its deadline, else -32005.
 *
 * @example
 * const write = createWriteRoute('mainnet', chainId, selector, breaker, budget);
 * const { result, upstream } = await write(call);
 */
export function createWriteRoute(
  network: string,
  chainId: string | undefined,
  selector: Pick<Selector, 'ranked' | 'takes' | 'allLack'>,
  breaker: BreakerLayer,
  budget: BudgetLayer,
): Forward {
  return async (call) => {
    try {
      return await write(call);
    } catch (err) {
      throw withAttempts(err, call.attempts);
    }
  };

  /** The write itself (its errors are marked with its attempts above: writes are not the hot path). */
  async function write(call: NetworkCall): Promise<Forwarded> {
    let last: UpstreamTransportError | UpstreamRpcError | undefined;
    const list = selector.ranked(call.cls);
    let triedAny = false;
    for (;;) {
      // the soonest an upstream skipped for its budget has room again
      let budgetWaitMs: number | undefined;
      for (const m of list) {
        if (!selector.takes(m, call.method)) continue;
        if (m.budget !== undefined) {
          if (!breaker.mayAdmit(m)) continue;
          const wait = await budget.take(m, call);
          if (wait > 0) {
            budgetWaitMs = budgetWaitMs === undefined ? wait : Math.min(budgetWaitMs, wait);
            continue;
          }
        }
        if (!breaker.admits(m)) continue;
        triedAny = true;
        const r = await breaker.attempt(m, call, call.signal);
        if (r.ok) return { result: r.answer.result, upstream: m.upstream.name, attempts: call.attempts };
        // the node's answer to a write is final (it may have acted on it), except "no such method"
        if (r.err instanceof UpstreamRpcError && r.verdict.kind !== 'unsupported') throw r.err;
        last = r.err;
        if (r.err instanceof UpstreamTransportError && r.err.maybeDelivered) break;
      }
      if (triedAny || budgetWaitMs === undefined) break;
      // every upstream that could take it is at its budget: wait for the soonest within the deadline
      if (!(await budget.wait(call, budgetWaitMs))) throw budget.exhausted(call, budgetWaitMs);
    }
    if (!triedAny && selector.allLack(list, call.method)) throw methodNotFound(network, call.method);
    throw upstreamUnavailable(network, last, triedAny ? undefined : nothingTried(list, chainId));
  }
}
