import { Counter, collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/** prom-client's CPU counters count from when they are registered; ours replace them. */
const CPU_COUNTERS = [
  ['process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', 'user'],
  ['process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.', 'system'],
  ['process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.', 'both'],
] as const;

/**
 * The process' own metrics (`process_*`, `nodejs_*`: CPU, memory, event loop lag, GC, handles),
 * collected once per process whatever the number of gateways in it: prom-client's collectors
 * start an event-loop monitor and a GC observer that are never stopped, so each gateway having
 * its own would pile them up in a process that starts many (tests).
 *
 * The CPU counters (`process_cpu_seconds_total` and its user and system parts) count from the
 * start of the process, as Prometheus' process collectors do: each scrape reads
 * `process.cpuUsage()` whole. prom-client's own count from the moment they were registered (the
 * first scrape here), which dropped everything the process had used before it.
 *
 * @example
 * const text = await Registry.merge([processMetricsRegistry(), gatewayRegistry]).metrics();
 */
export function processMetricsRegistry(): Registry {
  if (shared === undefined) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    for (const [name, help, part] of CPU_COUNTERS) {
      registry.removeSingleMetric(name);
      registry.registerMetric(
        new Counter({
          name,
          help,
          registers: [],
          collect() {
            const { user, system } = process.cpuUsage();
            const micros = part === 'user' ? user : part === 'system' ? system : user + system;
            this.reset();
            this.inc(micros / 1e6);
          },
        }),
      );
    }
    shared = registry;
  }
  return shared;
}
