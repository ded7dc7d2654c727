import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/**
 * The process' own metrics (`process_*`, `nodejs_*`: CPU, memory, event loop lag, GC, handles),
 * collected once per process whatever the number of gateways in it: prom-client's collectors
 * start an event-loop monitor and a GC observer that are never stopped, so each gateway having
 * its own would pile them up in a process that starts many (tests).
 *
 * @example
 * const text = await Registry.merge([processMetricsRegistry(), gatewayRegistry]).metrics();
 */
export function processMetricsRegistry(): Registry {
  if (shared === undefined) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
