import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import { classifyUpstreamError } from '../../../upstream/classifyUpstreamError.js';
import type { UpstreamAnswer } from '../../../upstream/createHttpUpstream.js';
import { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import type { NetworkHeads } from '../../heads/createHeads.js';
import type { Member } from '../../members/createMember.js';
import type { Attempt, NetworkCall, Send } from '../../types.js';

/** A provider's JSON-RPC answer that it is rate limiting (Infura's -32005, Alchemy's 429, wordings). */
const THROTTLED = /rate limit|too many requests|request limit|limit exceeded|exceeded .*(capacity|quota)/i;

/** The breaker layer: whether an upstream may be asked, and one attempt on it, accounted for. */
export interface BreakerLayer {
  /** Whether a request may go to `m` now (its breaker; in half-open, true once: the trial). */
  admits(m: Member): boolean;
  /** What `admits(m)` would say, without taking a half-open trial (before charging a budget). */
  mayAdmit(m: Member): boolean;
  /**
   * One attempt of `call` on `m` through the layers below (`send`): its latency and outcome
   * recorded in the upstream's scores for the call's class, its breaker and its failures in a
   * row; a -32601 learned as a missing capability; the failure classified
   * (`classifyUpstreamError`, told the heads); a provider's 429 (HTTP, or its JSON-RPC wording)
   * tightens the upstream's budget when it has one (auto-tune). Throws only when the caller went away
   * (`ClientGoneError`) or on a failure that is not the upstream's (a body that cannot be sent).
   */
  attempt(m: Member, call: NetworkCall, signal: AbortSignal | undefined): Promise<Attempt>;
}

/**
 * The breaker layer of a network, around `send` (the upstream call and any attempt-level layers
 * below it). Every request sent upstream for a call counts in `call.attempts`.
 *
 * @example
 * const breaker = createBreakerLayer(send, heads, Date.now);
 * if (breaker.admits(m)) { const r = await breaker.attempt(m, call, signal); }
 */
export function createBreakerLayer(send: Send, heads: Pick<NetworkHeads, 'best'>, now: () => number): BreakerLayer {
  return {
    admits: (m) => m.breaker.allow(now()),
    mayAdmit: (m) => m.breaker.wouldAllow(now()),
    async attempt(m, call, signal) {
      const started = performance.now();
      const stats = m.stats[call.cls];
      call.attempts += 1;
      let answer: UpstreamAnswer;
      try {
        answer = await send(m, call, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (err instanceof ClientGoneError) throw err;
        if (!(err instanceof UpstreamTransportError)) throw err;
        stats.record(performance.now() - started, false);
        m.breaker.failure(now());
        m.consecutiveFailures += 1;
        m.lastFailure = err.message;
        if (err.status === 429) m.budget?.throttled(now());
        return { ok: false, by: m, verdict: classifyUpstreamError(err), err };
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
          bestHead: m.role === 'primary' ? heads.best() : m.head,
          ranged: call.method === 'eth_getLogs' || call.method === 'starknet_getEvents',
        });
        if (verdict.kind === 'unavailable') {
          const throttled = rpcError.code === 429 || rpcError.code === -32005 || THROTTLED.test(rpcError.message);
          if (throttled) m.budget?.throttled(now());
          stats.record(latency, false);
          m.breaker.failure(now());
          m.consecutiveFailures += 1;
          m.lastFailure = verdict.reason;
        } else {
          if (verdict.kind === 'unsupported') m.caps.learnLacks(call.method, now());
          stats.record(latency, true);
          m.breaker.success();
          m.consecutiveFailures = 0;
        }
        return { ok: false, by: m, verdict, err: rpcError };
      }
      stats.record(latency, true);
      m.breaker.success();
      m.consecutiveFailures = 0;
      return { ok: true, by: m, answer: answer as UpstreamAnswer & { error?: undefined } };
    },
  };
}
