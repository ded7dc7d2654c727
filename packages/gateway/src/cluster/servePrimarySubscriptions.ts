import type { GatewayConfig } from '../config/types.js';
import { GatewayError, ProtocolRpcError } from '../errors/GatewayError.js';
import { connectUpstreamSocket, type SubscriptionTransport } from '../subscriptions/SubscriptionTransport.js';
import { DEFAULT_SUBSCRIPTION_TIMINGS, subscriptionFamilyOf } from '../subscriptions/createSubscriptions.js';
import {
  type SharedSubscriptionStats,
  type SharedSubscriptionTransport,
  shareSubscriptionTransport,
} from '../subscriptions/shareSubscriptionTransport.js';
import type { BackendEndpoint, SentError, WorkerMessage } from './ClusterMessages.js';
import type { WorkerSlot } from './superviseWorkers.js';

type SubMessage = Extract<WorkerMessage, { t: 'sub-open' | 'sub-subscribe' | 'sub-unsubscribe' | 'sub-close' }>;

/**
 * The primary's end of the workers' subscriptions: one upstream connection per network (to the
 * network's upstreams' WebSockets, in order, as a hub of one process uses them), shared by every
 * worker's hub through {@link shareSubscriptionTransport}, so a gateway of N workers holds one
 * upstream subscription per filter, as a gateway of one process does. Each worker's hub opens a
 * handle (`sub-open`), subscribes and unsubscribes through it; the primary sends it its
 * subscriptions' notifications and the connection's drops, reconnects and give-up, in the order
 * it heard them. A worker that dies lets go of everything it held.
 *
 * @example
 * const subs = servePrimarySubscriptions(config, backends);
 * // in the workers' message handler: if (m.t.startsWith('sub-')) subs.handle(slot, m);
 * // when a worker exits: subs.gone(slot);
 */
export function servePrimarySubscriptions(config: GatewayConfig, backends: ReadonlyMap<string, BackendEndpoint>) {
  const shared = new Map<string, SharedSubscriptionTransport>();
  const handles = new Map<WorkerSlot, Map<number, SubscriptionTransport>>();

  const sharedFor = (network: string): SharedSubscriptionTransport | undefined => {
    const found = shared.get(network);
    if (found) return found;
    const settings = config.networks.find((n) => n.name === network);
    const family = settings && subscriptionFamilyOf(settings.family);
    if (!settings || !family) return undefined;
    const urls = settings.upstreams.flatMap((u) => {
      const ws = (u.embedded ? backends.get(u.embedded)?.ws : undefined) ?? u.ws;
      return ws === undefined ? [] : [ws];
    });
    const transport = shareSubscriptionTransport(
      connectUpstreamSocket(
        family,
        (failed) => (urls.length === 0 ? undefined : urls[failed % urls.length]),
        DEFAULT_SUBSCRIPTION_TIMINGS,
      ),
    );
    shared.set(network, transport);
    return transport;
  };

  const handle = (slot: WorkerSlot, m: SubMessage) => {
    let mine = handles.get(slot);
    if (!mine) {
      mine = new Map();
      handles.set(slot, mine);
    }
    switch (m.t) {
      case 'sub-open': {
        const ref = m.ref;
        const send = (
          event: 'notification' | 'dropped' | 'reconnected' | 'gave-up',
          more: { id?: string; result?: unknown; reason?: string } = {},
        ) => slot.send({ t: 'sub-event', ref, event, ...more });
        const network = sharedFor(m.network);
        if (!network) {
          send('gave-up', { reason: `no subscriptions on network ${m.network}` });
          return;
        }
        mine.set(
          ref,
          network.connect({
            onNotification: (id, result) => send('notification', { id, result }),
            onDropped: (reason) => send('dropped', { reason }),
            onReconnected: () => send('reconnected'),
            onGiveUp: (reason) => {
              mine.delete(ref);
              send('gave-up', { reason });
            },
          }),
        );
        return;
      }
      case 'sub-subscribe': {
        const { ref, call } = m;
        const transport = mine.get(ref);
        if (!transport) {
          slot.send({ t: 'sub-failed', ref, call, error: { kind: 'gateway', message: 'upstream unavailable' } });
          return;
        }
        transport
          .subscribe(m.filter, (id) => slot.send({ t: 'sub-subscribed', ref, call, id }))
          .catch((err: unknown) => slot.send({ t: 'sub-failed', ref, call, error: sentError(err) }));
        return;
      }
      case 'sub-unsubscribe':
        mine.get(m.ref)?.unsubscribe(m.id);
        return;
      case 'sub-close':
        mine.get(m.ref)?.close();
        mine.delete(m.ref);
        return;
    }
  };

  return {
    handle,
    /** A worker is gone: its subscriptions end (upstream too, where it was the last holder). */
    gone(slot: WorkerSlot): void {
      const mine = handles.get(slot);
      handles.delete(slot);
      for (const t of mine?.values() ?? []) t.close();
    },
    /** What each network's shared connection holds now. */
    stats(): Record<string, SharedSubscriptionStats> {
      return Object.fromEntries([...shared].map(([name, s]) => [name, s.stats()]));
    },
    /** Closes every upstream connection. */
    close(): void {
      for (const s of shared.values()) s.close();
      shared.clear();
      handles.clear();
    },
  };
}

/** An error as it crosses the channel: an upstream's JSON-RPC error keeps its code and data. */
function sentError(err: unknown): SentError {
  if (err instanceof ProtocolRpcError) return { kind: 'rpc', code: err.code, message: err.message, data: err.data };
  if (err instanceof GatewayError) return { kind: 'gateway', message: err.message, data: err.data };
  return { kind: 'other', message: (err as Error)?.message ?? String(err) };
}
