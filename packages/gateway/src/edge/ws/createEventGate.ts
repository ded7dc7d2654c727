import type { GatewayError } from '../../errors/GatewayError.js';
import type { LimitDecision, Limiter } from '../../limits/Limiter.js';
import type { TenantKey } from '../../pipeline/RequestContext.js';
import { limitError } from '../../pipeline/stages/limitError.js';

const ADMITTED: LimitDecision = Object.freeze({ ok: true });

/** One connection's subscription events, charged to its key before they are sent. */
export interface EventGate {
  /** An event to send once it is charged (events leave in the order they came). */
  push(text: string, method: string): void;
  /** Nothing more is sent (the connection is closing). */
  stop(): void;
}

/**
 * The gate between a connection's subscriptions and its socket: every event is charged to the
 * key (`credits` each, against its own limits; an event over the per-second rate only is counted
 * without refusing, as the key's calls are held to the rate, not its events) before it is sent,
 * so a key that has used its day (over HTTP, another connection or another instance) receives
 * no more events. Events that arrive while a charge is in flight are charged together in the
 * next one (one limiter call per round trip, however many events). When the day's credits run out, the events that
 * still fit are sent and `exhausted` gets the 429 refusal: the connection tells the client and
 * closes. The key's limits are read at each charge (`tenant()`), so a lower `creditsPerDay`
 * applies at once. When the limiter cannot be asked (it throws), events are sent (they are
 * counted in usage) and `onError` is told: an outage of the limiter's store does not cut every
 * subscription. Events waiting for a charge are bounded by `maxPendingBytes` (`overflow`).
 *
 * @example
 * const events = createEventGate({ limiter, tenant: () => conn.key!, credits: 5, deliver, exhausted, overflow, maxPendingBytes });
 * sink.event = (text, method) => events.push(text, method);
 */
export function createEventGate(deps: {
  readonly limiter: Limiter;
  /** The key's current record (its limits may change while the connection is open). */
  readonly tenant: () => TenantKey;
  /** Credits per event. */
  readonly credits: number;
  /** Sends one charged event (and records its usage). */
  readonly deliver: (text: string, method: string) => void;
  /** The key is over its daily credits: the refusal to tell the client. */
  readonly exhausted: (refusal: GatewayError) => void;
  /** More than `maxPendingBytes` wait for a charge. */
  readonly overflow: () => void;
  readonly maxPendingBytes: number;
  readonly onError: (err: unknown) => void;
}): EventGate {
  const { limiter, credits } = deps;
  let pending: Array<{ text: string; method: string }> = [];
  let pendingBytes = 0;
  let draining = false;
  let stopped = false;

  /**
   * Charges `n` events against the key's own limits (so the limiter's leases follow its real
   * rate); an event over the rate only is counted without refusing (`record`) and sent.
   */
  const charge = async (tenant: TenantKey, n: number): Promise<LimitDecision> => {
    const decision = await limiter.charge(tenant.record.key, n * credits, tenant.limits);
    if (decision.ok || decision.kind !== 'rate') return decision;
    await limiter.record(tenant.record.key, n * credits);
    return ADMITTED;
  };

  async function drain() {
    draining = true;
    try {
      while (pending.length > 0 && !stopped) {
        const batch = pending;
        pending = [];
        pendingBytes = 0;
        const tenant = deps.tenant();
        let send = batch.length;
        let refusal: GatewayError | undefined;
        try {
          const decision = await charge(tenant, batch.length);
          if (!decision.ok) {
            refusal = limitError(decision);
            send = 0;
            // the events that still fit in the day go out before the end
            const fit =
              decision.kind === 'daily'
                ? Math.min(batch.length - 1, Math.floor((decision.dailyLimit - decision.used) / credits))
                : 0;
            if (fit > 0) {
              await limiter.record(tenant.record.key, fit * credits);
              send = fit;
            }
          }
        } catch (err) {
          deps.onError(err);
        }
        if (stopped) return;
        for (let i = 0; i < send; i++) deps.deliver(batch[i]!.text, batch[i]!.method);
        if (refusal !== undefined) {
          stopped = true;
          pending = [];
          deps.exhausted(refusal);
        }
      }
    } finally {
      draining = false;
    }
  }

  return {
    push(text, method) {
      if (stopped) return;
      pending.push({ text, method });
      pendingBytes += text.length;
      if (pendingBytes > deps.maxPendingBytes) {
        stopped = true;
        pending = [];
        deps.overflow();
        return;
      }
      if (!draining) drain().catch(deps.onError);
    },
    stop() {
      stopped = true;
      pending = [];
    },
  };
}
