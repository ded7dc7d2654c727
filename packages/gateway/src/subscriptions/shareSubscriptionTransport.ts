import type { UpstreamSocketEvents } from './createUpstreamSocket.js';
import type { SubscriptionFilter } from './SubscriptionFamily.js';
import type { ConnectSubscriptions, SubscriptionTransport } from './SubscriptionTransport.js';

/** One holder of the shared transport (a hub, or a cluster worker's hub over IPC). */
interface Holder {
  readonly events: UpstreamSocketEvents;
  /** Upstream ids this holder subscribed to and has not ended. */
  readonly ids: Set<string>;
  closed: boolean;
}

/** One upstream subscription (one filter), and who holds it. */
interface Entry {
  readonly key: string;
  id: string | undefined;
  readonly holders: Set<Holder>;
  /** Holders waiting for the upstream's answer (the subscribe is in flight). */
  readonly waiting: Array<{ holder: Holder; onId: (id: string) => void }>;
  readonly ready: Promise<void>;
}

/** What a shared transport holds now. */
export interface SharedSubscriptionStats {
  /** Upstream subscriptions open (one per filter, whatever the number of holders). */
  readonly upstreamSubscriptions: number;
  /** Upstream connections open (0 or 1). */
  readonly upstreamConnections: number;
  /** Holders connected (hubs; in a cluster, one per worker with a subscription on the network). */
  readonly holders: number;
}

/**
 * One upstream connection shared by several subscription hubs: each hub connects as if it had a
 * connection of its own (the same {@link SubscriptionTransport}), and one upstream subscription
 * per filter (`filter.key`) serves every hub that subscribes to it; the upstream is unsubscribed
 * when the last holder ends it, and the connection closed when no holder is left. Notifications go
 * to each holder of their subscription; a drop, a reconnect and a give-up to every holder (each
 * hub then resubscribes its own streams: the first resubscribe of a filter makes it again, the
 * others join it). The primary process of `nodegate start --workers N` holds one per network, so
 * the workers of one gateway hold one upstream subscription per filter between them.
 *
 * @example
 * const shared = shareSubscriptionTransport(connectUpstreamSocket(family, wsUrl, timings));
 * const hubA = createSubscriptionHub({ …, connect: shared.connect });
 * const hubB = createSubscriptionHub({ …, connect: shared.connect }); // newHeads on both: one upstream eth_subscribe
 */
export function shareSubscriptionTransport(open: ConnectSubscriptions) {
  let transport: SubscriptionTransport | undefined;
  const holders = new Set<Holder>();
  const entries = new Map<string, Entry>();
  const byId = new Map<string, Entry>();

  /** The upstream subscriptions are gone (the connection dropped or gave up). */
  const forgetAll = () => {
    entries.clear();
    byId.clear();
    for (const h of holders) h.ids.clear();
  };

  const upstream = (): SubscriptionTransport => {
    transport ??= open({
      onNotification(id, result) {
        const entry = byId.get(id);
        if (entry) for (const h of entry.holders) h.events.onNotification(id, result);
      },
      onDropped(reason) {
        forgetAll();
        for (const h of [...holders]) h.events.onDropped(reason);
      },
      onReconnected() {
        for (const h of [...holders]) h.events.onReconnected();
      },
      onGiveUp(reason) {
        // closed for good: the next subscribe opens a new connection
        transport = undefined;
        forgetAll();
        const all = [...holders];
        holders.clear();
        for (const h of all) {
          h.closed = true;
          h.events.onGiveUp(reason);
        }
      },
    });
    return transport;
  };

  /** `holder` no longer holds `entry`: the upstream subscription ends with its last holder. */
  const leave = (holder: Holder, entry: Entry) => {
    entry.holders.delete(holder);
    if (entry.holders.size > 0 || entry.waiting.length > 0 || entry.id === undefined) return;
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    byId.delete(entry.id);
    if (transport?.connected) transport.unsubscribe(entry.id);
  };

  const closeIfUnused = () => {
    if (holders.size > 0 || transport === undefined) return;
    const t = transport;
    transport = undefined;
    forgetAll();
    t.close();
  };

  const subscribe = (holder: Holder, filter: SubscriptionFilter, onId: (id: string) => void): Promise<void> => {
    const existing = entries.get(filter.key);
    if (existing?.id !== undefined) {
      existing.holders.add(holder);
      holder.ids.add(existing.id);
      onId(existing.id);
      return Promise.resolve();
    }
    if (existing) {
      existing.waiting.push({ holder, onId });
      return existing.ready;
    }
    const t = upstream();
    const waiting: Entry['waiting'] = [{ holder, onId }];
    const entry: Entry = {
      key: filter.key,
      id: undefined,
      holders: new Set(),
      waiting,
      ready: t.subscribe(filter, (id) => {
        entry.id = id;
        byId.set(id, entry);
        // every holder that asked meanwhile gets the id now, before any notification of it
        for (const w of waiting.splice(0)) {
          if (w.holder.closed) continue;
          entry.holders.add(w.holder);
          w.holder.ids.add(id);
          w.onId(id);
        }
        if (entry.holders.size === 0) leave(holder, entry);
      }),
    };
    entries.set(filter.key, entry);
    entry.ready.catch(() => {
      waiting.length = 0;
      if (entries.get(filter.key) === entry) entries.delete(filter.key);
    });
    return entry.ready;
  };

  return {
    /** Connects one holder (a hub's `connect`). */
    connect: ((events) => {
      const holder: Holder = { events, ids: new Set(), closed: false };
      holders.add(holder);
      return {
        subscribe: (filter, onId) => {
          if (holder.closed) return Promise.reject(new Error('the subscription transport is closed'));
          return subscribe(holder, filter, onId);
        },
        unsubscribe(id) {
          if (!holder.ids.delete(id)) return;
          const entry = byId.get(id);
          if (entry) leave(holder, entry);
        },
        get connected() {
          return !holder.closed && transport?.connected === true;
        },
        close() {
          if (holder.closed) return;
          holder.closed = true;
          holders.delete(holder);
          for (const id of holder.ids) {
            const entry = byId.get(id);
            if (entry) leave(holder, entry);
          }
          holder.ids.clear();
          closeIfUnused();
        },
      };
    }) satisfies ConnectSubscriptions,
    stats(): SharedSubscriptionStats {
      return {
        upstreamSubscriptions: byId.size,
        upstreamConnections: transport?.connected ? 1 : 0,
        holders: holders.size,
      };
    },
    /** Closes the upstream connection (every holder hears a give-up first, as when it failed). */
    close(reason = 'gateway shutting down'): void {
      const t = transport;
      transport = undefined;
      forgetAll();
      const all = [...holders];
      holders.clear();
      for (const h of all) h.closed = true;
      t?.close();
      for (const h of all) h.events.onGiveUp(reason);
    },
  };
}

/** A transport shared by {@link shareSubscriptionTransport}. */
export type SharedSubscriptionTransport = ReturnType<typeof shareSubscriptionTransport>;
