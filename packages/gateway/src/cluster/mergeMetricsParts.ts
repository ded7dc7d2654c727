import { AggregatorRegistry } from 'prom-client';
import type { MetricsPart } from './ClusterMessages.js';

/**
 * The metrics of every process of a cluster as one Prometheus exposition text: each sample gets a
 * `worker` label (the worker's number, or `primary` for the primary process's own `process_*` and
 * `nodejs_*`), so no two processes' samples merge and none is lost: a counter stays a counter per
 * worker (sum them with `sum without (worker) (…)`), a gauge a gauge per worker. A metric only
 * some processes have appears with theirs.
 *
 * @example
 * const text = await mergeMetricsParts([{ worker: '1', metrics: await a.scrapeJson() }, { worker: '2', metrics: await b.scrapeJson() }]);
 * // nodegate_requests_total{network="eth",…,worker="1"} 10
 * // nodegate_requests_total{network="eth",…,worker="2"} 12
 */
export function mergeMetricsParts(parts: readonly MetricsPart[]): Promise<string> {
  const labelled = parts.map((part) =>
    part.metrics.map((metric) => ({
      ...metric,
      // every sample is its worker's alone: summing equal labels cannot merge two processes
      aggregator: 'sum' as const,
      values: metric.values.map((v) => ({ ...v, labels: { ...v.labels, worker: part.worker } })),
    })),
  );
  return AggregatorRegistry.aggregate(labelled).metrics();
}
