import { randomBytes } from 'node:crypto';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import type { Logger } from '../log/createLogger.js';
import type { UpstreamSocketTimings } from './createUpstreamSocket.js';
import type { StreamLogic, SubscriptionFamily, SubscriptionFilter } from './SubscriptionFamily.js';
import {
  type ConnectSubscriptions,
  connectUpstreamSocket,
  type SubscriptionTransport,
} from './SubscriptionTransport.js';

/** Close codes that end subscriptions (the WebSocket edge closes the client connection with them). */
export const SUBSCRIPTION_CLOSE = {
  /** The gateway is stopping. */
  GOING_AWAY: 1001,
  /** The upstream subscription connection could not be re-established (gave up). */
  UPSTREAM_FAILED: 1011,
} as const;

/** One client's end of a shared subscription. */
export interface SubscriptionSink {
  /**
   * One event: the notification text to send (built around a result serialised once for every
   * client of the stream) and its method, for usage.
   */
  event(text: string, method: string): void;
  /** The subscription ended for a reason of the gateway's: close code and reason text. */
  end(code: number, reason: string): void;
}

/** A client's subscription: its own id. Events reach the sink only once it is activated. */
export interface ClientSubscription {
  readonly id: string;
  /** Start delivering (call it once the subscribe answer is written); queued events go first. */
  activate(): void;
}

/** Counters of one hub (one network). */
export interface SubscriptionHubStats {
  /** Client subscriptions open. */
  clientSubscriptions: number;
  /** Upstream subscriptions open (one per distinct filter, plus newHeads held for logs). */
  upstreamSubscriptions: number;
  /** Upstream WebSocket connections open (0 or 1). */
  upstreamConnections: number;
  /** Upstream connections opened again after a drop. */
  reconnects: number;
  /** Upstream subscriptions made again after a reconnect. */
  resubscribes: number;
  /** Events fetched over HTTP to fill a gap (per stream, not per client). */
  backfilledEvents: number;
  /** Logs sent with `removed: true` after a reorg (per stream). */
  removedLogs: number;
  /** Events delivered to clients (per client). */
  deliveredEvents: number;
  /** Times the upstream connection was given up (every subscription ended with 1011). */
  gaveUp: number;
}

interface Client {
  readonly sink: SubscriptionSink;
  active: boolean;
  queued: string[] | undefined;
}

interface Stream {
  readonly filter: SubscriptionFilter;
  readonly logic: StreamLogic;
  readonly clients: Map<string, Client>;
  readonly notificationMethod: string;
  readonly dependencies: Stream[];
  internalRefs: number;
  upstreamId: string | undefined;
  ready: Promise<void>;
  /** Being made (its first upstream subscribe is in flight): not resubscribed by a reconnect. */
  creating: boolean;
  ended: boolean;
}

/** Events queued for a client between its subscribe and the answer being written. */
const MAX_QUEUED = 1_000;

/**
 * One network's subscriptions: one upstream subscription per distinct filter, shared by every
 * client that asks for it (reference counted; unsubscribed upstream when the last one leaves, and
 * the upstream connection closed when no subscription is left). Each client gets its own id and
 * its own copy of each event. When the upstream connection drops, it reconnects with backoff
 * (possibly to another upstream: `wsUrl` is asked again at each attempt), resubscribes every stream and lets
 * each stream backfill what was missed; events are handled one at a time, in arrival order, so
 * backfilled events come before live ones. When it gives up, every client subscription ends
 * (`end(1011, reason)`).
 *
 * @example
 * const hub = createSubscriptionHub({
 *   family: createEthSubscriptionFamily(),
 *   wsUrl: (failed) => wsUrls[failed % wsUrls.length],
 *   fetch: (method, params) => fetchThrough(network, method, params),
 *   timings, log,
 * });
 * const sub = await hub.subscribe('eth_subscribe', ['newHeads'], sink);
 * // … write the answer with sub.id, then:
 * sub.activate();
 * hub.unsubscribe(sub.id);
 */
export function createSubscriptionHub(deps: {
  readonly family: SubscriptionFamily;
  /** The upstream WebSocket to connect to, after `failedAttempts` failed attempts in a row. */
  readonly wsUrl: (failedAttempts: number) => string | undefined;
  readonly fetch: (method: string, params: unknown[]) => Promise<unknown>;
  readonly timings: UpstreamSocketTimings;
  readonly log: Logger;
  /** A name for logs (the network's). */
  readonly name: string;
  /**
   * Who else hears the network's heads (the response cache's head tracker): every upstream
   * notification of the stream whose filter key is `key` (newHeads without a starting block),
   * as it arrives, and each reconnect (heads may have been missed). No upstream traffic of its own.
   */
  readonly heads?: { readonly key: string; heard(result: unknown): void; resync(): void } | undefined;
  /**
   * Opens the upstream connection. Default: a WebSocket to `wsUrl` ({@link connectUpstreamSocket});
   * a cluster worker passes the primary's shared connection (`src/cluster/`).
   */
  readonly connect?: ConnectSubscriptions | undefined;
}) {
  const { family, timings, log } = deps;
  const connect = deps.connect ?? connectUpstreamSocket(family, deps.wsUrl, timings);
  const streams = new Map<string, Stream>();
  /** Upstream subscription id → stream, for the current connection. */
  const routes = new Map<string, Stream>();
  /** Client subscription id → stream. */
  const owners = new Map<string, Stream>();
  let socket: SubscriptionTransport | undefined;
  let tail: Promise<void> = Promise.resolve();
  const counters = { reconnects: 0, resubscribes: 0, backfilledEvents: 0, removedLogs: 0, deliveredEvents: 0 };
  let gaveUp = 0;

  /** Runs `task` after every task queued before it (events, drops, resubscribes). */
  const run = (task: () => unknown) => {
    tail = tail.then(task).then(
      () => {},
      (err: unknown) => log.warn('subscription task failed', { network: deps.name, error: (err as Error).message }),
    );
  };

  function openSocket(): SubscriptionTransport {
    socket ??= connect({
      onNotification(upstreamId, result) {
        const stream = routes.get(upstreamId);
        if (!stream) return;
        if (stream.filter.key === deps.heads?.key) deps.heads.heard(result);
        run(() => stream.logic.onEvent(result));
      },
      onDropped(reason) {
        routes.clear();
        log.warn('upstream subscription connection dropped; reconnecting', { network: deps.name, reason });
        run(() => {
          for (const s of ordered()) s.logic.dropped?.();
        });
      },
      onReconnected() {
        counters.reconnects += 1;
        deps.heads?.resync();
        run(resubscribeAll);
      },
      onGiveUp(reason) {
        gaveUp += 1;
        log.error('upstream subscription connection failed; ending every subscription', {
          network: deps.name,
          reason,
        });
        endAll(SUBSCRIPTION_CLOSE.UPSTREAM_FAILED, 'upstream subscription connection failed');
      },
    });
    return socket;
  }

  const ordered = () => [...streams.values()].sort((a, b) => a.logic.order - b.logic.order);

  async function resubscribeAll() {
    const s = socket;
    if (!s) return;
    const again = ordered().filter((stream) => !stream.creating && !stream.ended);
    for (const stream of again) {
      try {
        await subscribeUpstream(stream, s);
        counters.resubscribes += 1;
      } catch (err) {
        // dropped again: the next reconnect resubscribes
        if (!(err instanceof UpstreamRpcError)) throw err;
        // this upstream refuses the filter: its clients are told, the others go on
        log.warn('upstream refused a subscription on resubscribe', { network: deps.name, error: err.message });
        endStream(stream, SUBSCRIPTION_CLOSE.UPSTREAM_FAILED, 'upstream refused the subscription');
      }
    }
    for (const stream of again) {
      if (stream.ended) continue;
      try {
        await stream.logic.backfill?.();
      } catch (err) {
        log.warn('subscription backfill failed; events of the gap may be missing', {
          network: deps.name,
          error: (err as Error).message,
        });
      }
    }
  }

  /** Ends one stream for every client of it (`end(code, reason)`). */
  function endStream(stream: Stream, code: number, reason: string) {
    const clients = [...stream.clients.values()];
    for (const id of stream.clients.keys()) owners.delete(id);
    stream.clients.clear();
    release(stream);
    for (const client of clients) client.sink.end(code, reason);
  }

  async function subscribeUpstream(stream: Stream, s: SubscriptionTransport) {
    await s.subscribe(stream.filter, (id) => {
      if (stream.ended) {
        // its last client left while it was being made
        s.unsubscribe(id);
        return;
      }
      stream.upstreamId = id;
      routes.set(id, stream);
    });
  }

  function acquire(method: string, params: unknown): Stream {
    const filter = family.filterOf(method, params);
    const existing = streams.get(filter.key);
    if (existing) return existing;
    const dependencies = family.dependsOn(filter).map(([m, p]) => {
      const d = acquire(m, p);
      d.internalRefs += 1;
      return d;
    });
    const stream: Stream = {
      filter,
      logic: family.createStream(filter, {
        emit: (result, how = 'live') => emit(stream, result, how),
        fetch: deps.fetch,
      }),
      clients: new Map(),
      notificationMethod: family.notificationMethod(filter),
      dependencies,
      internalRefs: 0,
      upstreamId: undefined,
      ready: Promise.resolve(),
      creating: true,
      ended: false,
    };
    streams.set(filter.key, stream);
    const s = openSocket();
    stream.ready = (async () => {
      await Promise.all(dependencies.map((d) => d.ready));
      await stream.logic.start?.();
      await subscribeUpstream(stream, s);
      stream.creating = false;
    })();
    stream.ready.catch(() => {
      // a failed stream is not shared any more; it is released when its waiters are gone
      stream.creating = false;
      if (streams.get(filter.key) === stream) streams.delete(filter.key);
    });
    return stream;
  }

  function release(stream: Stream) {
    if (stream.ended || stream.clients.size > 0 || stream.internalRefs > 0) return;
    stream.ended = true;
    if (streams.get(stream.filter.key) === stream) streams.delete(stream.filter.key);
    stream.logic.stop?.();
    if (stream.upstreamId !== undefined) {
      routes.delete(stream.upstreamId);
      if (socket?.connected) socket.unsubscribe(stream.upstreamId);
    }
    for (const d of stream.dependencies) {
      d.internalRefs -= 1;
      release(d);
    }
    if (streams.size === 0 && socket) {
      socket.close();
      socket = undefined;
      routes.clear();
    }
  }

  function emit(stream: Stream, result: unknown, how: 'live' | 'backfill' | 'removed') {
    if (how === 'backfill') counters.backfilledEvents += 1;
    else if (how === 'removed') counters.removedLogs += 1;
    if (stream.clients.size === 0) return;
    const json = JSON.stringify(result);
    for (const [id, client] of stream.clients) {
      const text = family.notification(stream.filter, id, json);
      if (client.active) {
        counters.deliveredEvents += 1;
        client.sink.event(text, stream.notificationMethod);
      } else if (client.queued && client.queued.length < MAX_QUEUED) {
        client.queued.push(text);
      }
    }
  }

  function endAll(code: number, reason: string) {
    const all = [...streams.values()];
    streams.clear();
    routes.clear();
    owners.clear();
    const s = socket;
    socket = undefined;
    s?.close();
    for (const stream of all) {
      stream.ended = true;
      stream.logic.stop?.();
      for (const client of stream.clients.values()) client.sink.end(code, reason);
      stream.clients.clear();
    }
  }

  return {
    /** The family's subscription methods (the edge routes these to the hub). */
    family,
    /**
     * Subscribes a client: shares the stream of an equal filter or opens one upstream. Throws
     * INVALID_PARAMS for a bad filter, or the upstream's error.
     */
    async subscribe(method: string, params: unknown, sink: SubscriptionSink): Promise<ClientSubscription> {
      if (deps.wsUrl(0) === undefined) {
        throw new GatewayError('METHOD_NOT_FOUND', 'subscriptions are not available on this network');
      }
      const stream = acquire(method, params);
      const id = `0x${randomBytes(16).toString('hex')}`;
      const client: Client = { sink, active: false, queued: [] };
      // held while it is made, so that a client leaving meanwhile does not end it for the others
      stream.internalRefs += 1;
      try {
        await stream.ready;
      } catch (err) {
        stream.internalRefs -= 1;
        release(stream);
        throw err;
      }
      const join = stream.logic.join;
      if (join && !stream.ended) {
        // in the hub's order: what it gets first, then every event after it (still held meanwhile)
        await new Promise<void>((resolve) =>
          run(() => {
            try {
              if (stream.ended) return;
              for (const r of join()) client.queued?.push(family.notification(stream.filter, id, JSON.stringify(r)));
              stream.clients.set(id, client);
              owners.set(id, stream);
            } finally {
              resolve();
            }
          }),
        );
      }
      stream.internalRefs -= 1;
      if (stream.ended) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', 'upstream unavailable: the subscription connection failed', {
          data: { reason: 'socket' },
        });
      }
      if (!join) {
        stream.clients.set(id, client);
        owners.set(id, stream);
      }
      return {
        id,
        activate() {
          if (client.active) return;
          client.active = true;
          const queued = client.queued ?? [];
          client.queued = undefined;
          for (const text of queued) {
            counters.deliveredEvents += 1;
            sink.event(text, stream.notificationMethod);
          }
        },
      };
    },
    /** Ends a client subscription; false when the id is not open. */
    unsubscribe(id: string): boolean {
      const stream = owners.get(id);
      if (!stream) return false;
      owners.delete(id);
      stream.clients.delete(id);
      release(stream);
      return true;
    },
    stats(): SubscriptionHubStats {
      return {
        clientSubscriptions: owners.size,
        upstreamSubscriptions: routes.size,
        upstreamConnections: socket?.connected ? 1 : 0,
        gaveUp,
        ...counters,
      };
    },
    /** Ends every subscription (`end(code, reason)` to each client) and closes the upstream connection. */
    close(code: number = SUBSCRIPTION_CLOSE.GOING_AWAY, reason = 'gateway shutting down') {
      endAll(code, reason);
    },
  };
}

/** A hub built by {@link createSubscriptionHub}. */
export type SubscriptionHub = ReturnType<typeof createSubscriptionHub>;
