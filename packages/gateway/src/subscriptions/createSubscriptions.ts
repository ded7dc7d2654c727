import type { Logger } from '../log/createLogger.js';
import type { Network } from '../network/createNetwork.js';
import { createEthSubscriptionFamily } from './createEthSubscriptionFamily.js';
import { createSubscriptionHub, type SubscriptionHub, type SubscriptionHubStats } from './createSubscriptionHub.js';
import type { UpstreamSocketTimings } from './createUpstreamSocket.js';
import { createStarknetSubscriptionFamily } from './starknet/createStarknetSubscriptionFamily.js';
import type { SubscriptionFamily } from './SubscriptionFamily.js';
import type { ConnectSubscriptions } from './SubscriptionTransport.js';

/** Timings of subscriptions: the upstream socket's, and the client heartbeat. */
export interface SubscriptionTimings extends UpstreamSocketTimings {
  /** Clients are pinged this often; one that did not answer the previous ping is closed. */
  readonly clientHeartbeatMs: number;
}

/** The defaults: ping upstreams every 15 s and clients every 30 s; give an upstream up after 60 s. */
export const DEFAULT_SUBSCRIPTION_TIMINGS: SubscriptionTimings = {
  heartbeatMs: 15_000,
  clientHeartbeatMs: 30_000,
  initialBackoffMs: 100,
  maxBackoffMs: 5_000,
  giveUpAfterMs: 60_000,
  callTimeoutMs: 10_000,
};

/**
 * The shape of `subscriptions.stats()`, for the metrics module: gauges (`connections`,
 * `clientSubscriptions`, `upstreamSubscriptions`, `upstreamConnections`) and counters since start
 * (the rest), in total and per network name (never per key).
 */
export interface SubscriptionStats extends SubscriptionHubStats {
  /** Client WebSocket connections open (every network). */
  connections: number;
  /** Client connections closed because they did not answer a ping. */
  deadClientsClosed: number;
  readonly networks: Record<string, SubscriptionHubStats>;
}

/** The subscription families, by network family: each hub gets its own instance (it may hold chain state). */
const FAMILIES: Readonly<Record<string, () => SubscriptionFamily>> = {
  eth: createEthSubscriptionFamily as () => SubscriptionFamily,
  starknet: createStarknetSubscriptionFamily as () => SubscriptionFamily,
};

/**
 * A new instance of the subscription family of a network family (`eth`, `starknet`), or undefined
 * when that family has no subscriptions (the cluster's primary uses it for the upstream calls).
 */
export function subscriptionFamilyOf(networkFamily: string): SubscriptionFamily | undefined {
  return FAMILIES[networkFamily]?.();
}

/**
 * The gateway's subscriptions: one hub per network (built on first use), the client connection
 * count and the stats. Ethereum and Starknet networks are served; other families get `undefined` from
 * `hubFor` until they have a {@link SubscriptionFamily} in `FAMILIES`. Backfill calls go through
 * the network's own family (`prepare`: the method table's validation and traits) and
 * `network.forward` (failover included).
 *
 * @example
 * const subscriptions = createSubscriptions({ log });
 * const hub = subscriptions.hubFor(network); // undefined: the family has no subscriptions
 * metrics.addCollector({ name: 'nodegate_ws_subscriptions', …, collect: () => [{ value: subscriptions.stats().clientSubscriptions }] });
 */
export function createSubscriptions(deps: {
  log: Logger;
  timings?: Partial<SubscriptionTimings> | undefined;
  /** Hears each network's upstream newHeads notifications while a hub holds that stream (the response cache). */
  heads?: { heard(network: string, result: unknown): void; resync(network: string): void } | undefined;
  /**
   * The upstream connection of a network's hub. Default: a WebSocket of this process; a cluster
   * worker passes the primary's shared one (`src/cluster/`), so the workers share each filter's
   * upstream subscription.
   */
  connect?: ((network: string) => ConnectSubscriptions) | undefined;
}) {
  const timings: SubscriptionTimings = { ...DEFAULT_SUBSCRIPTION_TIMINGS, ...deps.timings };
  const hubs = new Map<string, SubscriptionHub>();
  let connections = 0;
  let deadClientsClosed = 0;

  return {
    timings,
    /** The hub of a network, or undefined when its family has no subscriptions. */
    hubFor(network: Network): SubscriptionHub | undefined {
      const name = network.settings.name;
      let hub = hubs.get(name);
      if (hub) return hub;
      const family = FAMILIES[network.family.family];
      if (!family) return undefined;
      const callContext = { transport: 'http', dev: network.settings.dev } as const;
      const heads = deps.heads;
      hub = createSubscriptionHub({
        name,
        family: family(),
        // the stream of new heads without a starting block (eth and Starknet alike)
        heads: heads && {
          key: 'newHeads',
          heard: (result) => heads.heard(name, result),
          resync: () => heads.resync(name),
        },
        // the network's upstreams with a WebSocket, in order: the first while it answers, the
        // next ones in turn while connecting fails
        wsUrl: (failed) => {
          const urls = network.upstreams.flatMap((u) => (u.wsUrl === undefined ? [] : [u.wsUrl]));
          return urls.length === 0 ? undefined : urls[failed % urls.length];
        },
        fetch: async (method, params) => {
          const call = network.family.prepare({ id: 0, method, params }, callContext);
          const { result } = await network.forward(call.upstreamMethod, call.upstreamParams, call.policy);
          return call.finish ? call.finish(result) : result;
        },
        timings,
        log: deps.log,
        connect: deps.connect?.(name),
      });
      hubs.set(name, hub);
      return hub;
    },
    /** Counts a client connection; call the returned function when it closes. */
    connectionOpened(): () => void {
      connections += 1;
      let open = true;
      return () => {
        if (open) connections -= 1;
        open = false;
      };
    },
    /** Counts a client closed by the heartbeat. */
    deadClientClosed(): void {
      deadClientsClosed += 1;
    },
    stats(): SubscriptionStats {
      const networks: Record<string, SubscriptionHubStats> = {};
      const total: SubscriptionHubStats = {
        clientSubscriptions: 0,
        upstreamSubscriptions: 0,
        upstreamConnections: 0,
        reconnects: 0,
        resubscribes: 0,
        backfilledEvents: 0,
        removedLogs: 0,
        deliveredEvents: 0,
        gaveUp: 0,
      };
      for (const [name, hub] of hubs) {
        const s = hub.stats();
        networks[name] = s;
        for (const k of Object.keys(total) as Array<keyof SubscriptionHubStats>) total[k] += s[k];
      }
      return { ...total, connections, deadClientsClosed, networks };
    },
    /** Ends every subscription (1001) and closes the upstream connections. */
    close(): void {
      for (const hub of hubs.values()) hub.close();
      hubs.clear();
    },
  };
}

/** The subscriptions built by {@link createSubscriptions}. */
export type Subscriptions = ReturnType<typeof createSubscriptions>;
