import type { Network } from '../network/createNetwork.js';
import type { CollectorSpec, MetricSample } from './createGatewayMetrics.js';

/**
 * The upstreams' passive health, read from each upstream's `health()` snapshot at scrape time
 * (no upstream traffic): `nodegate_upstream_healthy{network,upstream}` (1 or 0) and
 * `nodegate_upstream_consecutive_failures{network,upstream}`.
 *
 * @example
 * for (const c of upstreamCollectors(networks)) metrics.addCollector(c);
 */
export function upstreamCollectors(networks: readonly Network[]): CollectorSpec[] {
  const each = (value: (h: ReturnType<Network['upstreams'][number]['health']>) => number) => (): MetricSample[] =>
    networks.flatMap((n) =>
      n.upstreams.map((u) => ({ labels: { network: n.settings.name, upstream: u.name }, value: value(u.health()) })),
    );
  return [
    {
      name: 'nodegate_upstream_healthy',
      help: 'Whether the upstream takes traffic (0 after consecutive transport failures, until a call succeeds)',
      type: 'gauge',
      labelNames: ['network', 'upstream'],
      collect: each((h) => (h.healthy ? 1 : 0)),
    },
    {
      name: 'nodegate_upstream_consecutive_failures',
      help: 'Transport failures in a row of the upstream',
      type: 'gauge',
      labelNames: ['network', 'upstream'],
      collect: each((h) => h.consecutiveFailures),
    },
  ];
}
