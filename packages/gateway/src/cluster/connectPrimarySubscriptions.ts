import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import type { UpstreamSocketEvents } from '../subscriptions/createUpstreamSocket.js';
import type { ConnectSubscriptions, SubscriptionTransport } from '../subscriptions/SubscriptionTransport.js';
import type { PrimaryMessage, SentError } from './ClusterMessages.js';
import type { PrimaryLink } from './createPrimaryLink.js';

type SubEvent = Extract<PrimaryMessage, { t: 'sub-event' }>;

/**
 * A cluster worker's subscription transports: each hub's upstream connection is a handle on the
 * primary process's shared one for its network (`sub-open`), so every worker's subscriptions to
 * one filter are one upstream subscription (see `shareSubscriptionTransport`). The channel keeps
 * the order the primary heard things in: a subscription's id arrives before its first
 * notification, and `onId` runs as it arrives. When the primary is gone, every transport hears a
 * give-up (its subscriptions end with 1011, as when an upstream connection fails for good).
 *
 * @example
 * const subscriptions = connectPrimarySubscriptions(link);
 * createSubscriptions({ log, connect: subscriptions.connect });
 */
export function connectPrimarySubscriptions(link: PrimaryLink) {
  let nextRef = 1;
  const open = new Map<number, { events: UpstreamSocketEvents; remote: RemoteState }>();

  link.on('sub-subscribed', (m) => {
    const call = open.get(m.ref)?.remote.calls.get(m.call);
    if (!call) return;
    open.get(m.ref)!.remote.calls.delete(m.call);
    call.onId(m.id);
    call.resolve();
  });
  link.on('sub-failed', (m) => {
    const call = open.get(m.ref)?.remote.calls.get(m.call);
    if (!call) return;
    open.get(m.ref)!.remote.calls.delete(m.call);
    call.reject(errorOf(m.error));
  });
  link.on('sub-event', (m: SubEvent) => {
    const o = open.get(m.ref);
    if (!o) return;
    switch (m.event) {
      case 'notification':
        o.events.onNotification(m.id ?? '', m.result);
        return;
      case 'dropped':
        o.remote.connected = false;
        o.events.onDropped(m.reason ?? 'upstream WebSocket closed');
        return;
      case 'reconnected':
        o.remote.connected = true;
        o.events.onReconnected();
        return;
      case 'gave-up':
        o.remote.connected = false;
        open.delete(m.ref);
        o.remote.fail(m.reason ?? 'upstream subscription connection failed');
        o.events.onGiveUp(m.reason ?? 'upstream subscription connection failed');
        return;
    }
  });

  return {
    /** The transport of one network's hub. */
    connect(network: string): ConnectSubscriptions {
      return (events) => {
        const ref = nextRef++;
        const remote = new RemoteState(link, ref);
        open.set(ref, { events, remote });
        link.send({ t: 'sub-open', ref, network });
        return remote.transport(() => open.delete(ref));
      };
    },
    /** The primary is gone: every transport gives up (their clients' subscriptions end). */
    primaryLost(): void {
      const all = [...open.values()];
      open.clear();
      for (const o of all) {
        o.remote.fail('the primary process is gone');
        o.events.onGiveUp('the primary process is gone');
      }
    },
  };
}

/** One transport's calls in flight and connection state. */
class RemoteState {
  connected = false;
  readonly calls = new Map<
    number,
    { onId: (id: string) => void; resolve: () => void; reject: (err: unknown) => void }
  >();
  private nextCall = 1;
  private closed = false;

  constructor(
    private readonly link: PrimaryLink,
    private readonly ref: number,
  ) {}

  /** Fails the calls in flight (the connection is gone for good). */
  fail(reason: string) {
    this.closed = true;
    const err = new GatewayError('UPSTREAM_UNAVAILABLE', `upstream unavailable: ${reason}`, {
      data: { reason: 'socket' },
    });
    for (const c of this.calls.values()) c.reject(err);
    this.calls.clear();
  }

  transport(forget: () => void): SubscriptionTransport {
    const self = this;
    return {
      subscribe(filter, onId) {
        if (self.closed) return Promise.reject(new GatewayError('UPSTREAM_UNAVAILABLE', 'upstream unavailable'));
        const call = self.nextCall++;
        return new Promise<void>((resolve, reject) => {
          self.calls.set(call, {
            onId: (id) => {
              self.connected = true;
              onId(id);
            },
            resolve,
            reject,
          });
          // only what the primary needs: a family's filter may hold more than the channel carries
          const sent = self.link.send({
            t: 'sub-subscribe',
            ref: self.ref,
            call,
            filter: { key: filter.key, upstreamMethod: filter.upstreamMethod, upstreamParams: filter.upstreamParams },
          });
          if (!sent) {
            self.calls.delete(call);
            reject(new GatewayError('UPSTREAM_UNAVAILABLE', 'upstream unavailable: the primary process is gone'));
          }
        });
      },
      unsubscribe(id) {
        if (!self.closed) self.link.send({ t: 'sub-unsubscribe', ref: self.ref, id });
      },
      get connected() {
        return !self.closed && self.connected;
      },
      close() {
        if (self.closed) return;
        self.fail('the subscription connection was closed');
        forget();
        self.link.send({ t: 'sub-close', ref: self.ref });
      },
    };
  }
}

/** The error the primary sent, as the hub tells them apart (an upstream's refusal, or a lost connection). */
function errorOf(e: SentError): Error {
  if (e.kind === 'rpc') return new UpstreamRpcError(e.code, e.message, e.data);
  if (e.kind === 'gateway') return new GatewayError('UPSTREAM_UNAVAILABLE', e.message, { data: e.data });
  return new Error(e.message);
}
