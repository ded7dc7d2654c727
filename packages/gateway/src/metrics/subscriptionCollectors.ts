import type { SubscriptionStats } from '../subscriptions/createSubscriptions.js';
import type { CollectorSpec, MetricSample } from './createGatewayMetrics.js';

type PerNetwork = keyof SubscriptionStats['networks'][string];

const PER_NETWORK: ReadonlyArray<{ field: PerNetwork; name: string; help: string; type: 'gauge' | 'counter' }> = [
  {
    field: 'clientSubscriptions',
    name: 'nodegate_ws_client_subscriptions',
    help: 'Client subscriptions open',
    type: 'gauge',
  },
  {
    field: 'upstreamSubscriptions',
    name: 'nodegate_ws_upstream_subscriptions',
    help: 'Upstream subscriptions open (one per distinct filter, shared by every client that asked for it)',
    type: 'gauge',
  },
  {
    field: 'upstreamConnections',
    name: 'nodegate_ws_upstream_connections',
    help: 'Upstream WebSocket connections open for subscriptions',
    type: 'gauge',
  },
  {
    field: 'reconnects',
    name: 'nodegate_ws_upstream_reconnects_total',
    help: 'Upstream subscription connections opened again after a drop',
    type: 'counter',
  },
  {
    field: 'resubscribes',
    name: 'nodegate_ws_upstream_resubscribes_total',
    help: 'Upstream subscriptions made again after a reconnect',
    type: 'counter',
  },
  {
    field: 'backfilledEvents',
    name: 'nodegate_ws_backfilled_events_total',
    help: 'Events fetched over HTTP to fill a gap after a reconnect (per stream)',
    type: 'counter',
  },
  {
    field: 'removedLogs',
    name: 'nodegate_ws_removed_logs_total',
    help: 'Logs sent with removed: true after a reorg (per stream)',
    type: 'counter',
  },
  {
    field: 'deliveredEvents',
    name: 'nodegate_ws_delivered_events_total',
    help: 'Subscription events delivered to clients',
    type: 'counter',
  },
  {
    field: 'gaveUp',
    name: 'nodegate_ws_upstream_gave_up_total',
    help: 'Times an upstream subscription connection was given up (its subscriptions ended with 1011)',
    type: 'counter',
  },
];

/**
 * The WebSocket metrics, read from `subscriptions.stats()` at scrape time: open client
 * connections, client and upstream subscriptions, upstream connections (gauges) and reconnects,
 * resubscribes, backfilled and removed events, deliveries and give-ups (counters), per network.
 *
 * @example
 * for (const c of subscriptionCollectors(subscriptions)) metrics.addCollector(c);
 */
export function subscriptionCollectors(subscriptions: { stats(): SubscriptionStats }): CollectorSpec[] {
  return [
    {
      name: 'nodegate_ws_connections',
      help: 'Client WebSocket connections open',
      type: 'gauge',
      collect: () => [{ value: subscriptions.stats().connections }],
    },
    {
      name: 'nodegate_ws_dead_clients_closed_total',
      help: 'Client WebSocket connections closed because they did not answer a ping',
      type: 'counter',
      collect: () => [{ value: subscriptions.stats().deadClientsClosed }],
    },
    ...PER_NETWORK.map(
      ({ field, name, help, type }): CollectorSpec => ({
        name,
        help,
        type,
        labelNames: ['network'],
        collect: (): MetricSample[] =>
          Object.entries(subscriptions.stats().networks).map(([network, s]) => ({
            labels: { network },
            value: s[field],
          })),
      }),
    ),
  ];
}
