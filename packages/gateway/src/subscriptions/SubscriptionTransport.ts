import { createUpstreamSocket, type UpstreamSocketEvents, type UpstreamSocketTimings } from './createUpstreamSocket.js';
import type { SubscriptionFamily, SubscriptionFilter } from './SubscriptionFamily.js';

/**
 * The upstream side of a subscription hub: one connection that carries its upstream
 * subscriptions. In one process it is a WebSocket to the network's upstream
 * ({@link connectUpstreamSocket}); in a cluster worker it is the primary process's shared
 * connection, reached over IPC (`src/cluster/`), so the workers of one gateway hold one upstream
 * subscription per filter between them.
 */
export interface SubscriptionTransport {
  /**
   * Subscribes upstream to `filter`. `onId` runs synchronously with the upstream subscription id
   * before any later notification is handled (so the id is routed before its first event).
   * Rejects with the upstream's `UpstreamRpcError`, or a `GatewayError` when the connection failed.
   */
  subscribe(filter: SubscriptionFilter, onId: (id: string) => void): Promise<void>;
  /** Ends upstream subscription `id` (best effort: a lost connection ends it anyway). */
  unsubscribe(id: string): void;
  /** Whether the connection is open now. */
  readonly connected: boolean;
  /** Closes it for good (no reconnect). */
  close(): void;
}

/** Opens a transport whose owner hears `events` (notifications, drops, reconnects, give-up). */
export type ConnectSubscriptions = (events: UpstreamSocketEvents) => SubscriptionTransport;

/**
 * The transport of one process: a reconnecting WebSocket to the URL `wsUrl` gives
 * ({@link createUpstreamSocket}), the family's subscribe and unsubscribe calls over it.
 *
 * @example
 * const connect = connectUpstreamSocket(createEthSubscriptionFamily(), () => 'ws://127.0.0.1:8545', timings);
 * const transport = connect({ onNotification, onDropped, onReconnected, onGiveUp });
 * await transport.subscribe(filter, (id) => routes.set(id, stream));
 */
export function connectUpstreamSocket(
  family: Pick<SubscriptionFamily, 'upstreamUnsubscribe'>,
  wsUrl: (failedAttempts: number) => string | undefined,
  timings: UpstreamSocketTimings,
): ConnectSubscriptions {
  return (events) => {
    const socket = createUpstreamSocket(wsUrl, timings, events);
    return {
      async subscribe(filter, onId) {
        await socket.call(filter.upstreamMethod, filter.upstreamParams, (result) => {
          if (typeof result === 'string' || typeof result === 'number') onId(String(result));
        });
      },
      unsubscribe(id) {
        const end = family.upstreamUnsubscribe(id);
        socket.call(end.method, end.params).catch(() => {});
      },
      get connected() {
        return socket.connected;
      },
      close: () => socket.close(),
    };
  };
}
