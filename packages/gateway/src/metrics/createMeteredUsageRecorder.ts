import type { Transport, UsageRecorder } from '../usage/UsageEvent.js';
import type { ClassifiedMethod } from './createMethodClassifier.js';
import type { GatewayMetrics } from './createGatewayMetrics.js';

/**
 * A usage recorder that counts every event into the request metrics, then forwards it to
 * `inner`. Every transport already reports each finished request, batch item, IPFS command
 * and subscription notification to the usage recorder, so wrapping it once (in `main.ts`)
 * meters HTTP, WebSocket and IPFS alike. Labels come from `classify` (bounded by the method
 * tables) and the event's network, transport and status; the key, account and request id
 * are never looked at.
 *
 * @example
 * const usage = createMeteredUsageRecorder(createUsageRecorder({ store }), metrics, createMethodClassifier(config.networks));
 * const path = createRequestPath({ keys, limiter, gate, usage, maxBatch });
 */
export function createMeteredUsageRecorder(
  inner: UsageRecorder,
  metrics: Pick<GatewayMetrics, 'observe'>,
  classify: (network: string, transport: Transport, method: string) => ClassifiedMethod,
): UsageRecorder {
  return {
    record(e) {
      const c = classify(e.network, e.transport, e.method);
      metrics.observe({
        network: e.network,
        class: c.class,
        method: c.method,
        transport: e.transport,
        status: e.status,
        outcome: e.refusal !== undefined ? 'refused' : e.errorCode !== undefined ? 'error' : 'ok',
        seconds: c.notification ? undefined : e.latencyMs / 1000,
        refusal: e.refusal,
        upstream: e.upstream,
      });
      inner.record(e);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}
