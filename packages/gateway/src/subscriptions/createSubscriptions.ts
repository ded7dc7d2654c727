import { ethMethods } from '../families/eth/ethMethods.js';
import type { Logger } from '../log/createLogger.js';
import type { Network } from '../network/createNetwork.js';
import { createEthSubscriptionFamily } from './createEthSubscriptionFamily.js';
import { createSubscriptionHub, type SubscriptionHub, type SubscriptionHubStats } from './createSubscriptionHub.js';
import type { UpstreamSocketTimings } from './createUpstreamSocket.js';

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

/** What upstream HTTP calls a subscription needs (backfill), with their table rows. */
const FETCH_TRAITS = {
  eth_getBlockByNumber: ethMethods.eth_getBlockByNumber,
  eth_getLogs: ethMethods.eth_getLogs,
} as const;

/**
 * The gateway's subscriptions: one hub per network (built on first use), the client connection
 * count and the stats. Ethereum networks are served; other families get `undefined` from
 * `hubFor` until they have a {@link SubscriptionFamily}.
 *
 * @example
 * const subscriptions = createSubscriptions({ log });
 * const hub = subscriptions.hubFor(network); // undefined: no upstream WebSocket
 * metrics.addCollector({ name: 'nodegate_ws_subscriptions', …, collect: () => [{ value: subscriptions.stats().clientSubscriptions }] });
 */
export function createSubscriptions(deps: { log: Logger; timings?: Partial<SubscriptionTimings> | undefined }) {
  const timings: SubscriptionTimings = { ...DEFAULT_SUBSCRIPTION_TIMINGS, ...deps.timings };
  const hubs = new Map<string, SubscriptionHub>();
  let connections = 0;
  let deadClientsClosed = 0;

  return {
    timings,
    /** The hub of a network, or undefined when it has no subscriptions (no upstream WebSocket, other family). */
    hubFor(network: Network): SubscriptionHub | undefined {
      const name = network.settings.name;
      let hub = hubs.get(name);
      if (hub) return hub;
      if (network.family.family !== 'eth' || network.wsUpstreamUrl() === undefined) return undefined;
      hub = createSubscriptionHub({
        name,
        family: createEthSubscriptionFamily(),
        wsUrl: () => network.wsUpstreamUrl(),
        fetch: async (method, params) => {
          const traits = FETCH_TRAITS[method as keyof typeof FETCH_TRAITS];
          if (!traits) throw new Error(`no backfill method ${method}`);
          return (await network.forward(method, params, traits)).result;
        },
        timings,
        log: deps.log,
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
