import type { HeadListener, HeadWatch } from './createHeadTracker.js';
import { parseHeadNotification } from './parseHeadNotification.js';

/** Passes the subscription hubs' upstream heads to the head trackers, by network. */
export interface HeadTap {
  /** The head source of one network's tracker. */
  watch(network: string, family: 'eth' | 'starknet'): HeadWatch;
  /** A hub heard a notification of its network's upstream newHeads stream. */
  heard(network: string, result: unknown): void;
  /** A hub's upstream connection came back: heads may have been missed. */
  resync(network: string): void;
}

/**
 * The head trackers' live source: the upstream newHeads subscription the WebSocket
 * subscriptions already hold for a network (`createSubscriptions({ heads: tap })`), heard as
 * each notification arrives, before it is sent to the clients. The cache opens no upstream
 * connection or subscription of its own, so there stays one upstream subscription per filter:
 * heads are heard at once while a client holds newHeads or logs on the network (logs hold
 * newHeads), and by the tracker's poll otherwise.
 *
 * @example
 * const tap = createHeadTap();
 * createHeadTracker(network, { …, watch: tap.watch('mainnet', 'eth') });
 * createSubscriptions({ log, heads: tap });
 */
export function createHeadTap(): HeadTap {
  const listeners = new Map<string, { family: 'eth' | 'starknet'; listener: HeadListener }>();
  return {
    watch: (network, family) => (listener) => {
      listeners.set(network, { family, listener });
      return {
        close() {
          if (listeners.get(network)?.listener === listener) listeners.delete(network);
        },
      };
    },
    heard(network, result) {
      const l = listeners.get(network);
      if (!l) return;
      const event = parseHeadNotification(l.family, result);
      if (event === undefined) return;
      if ('replacedFrom' in event) l.listener.replacedFrom(event.replacedFrom);
      else l.listener.head(event);
    },
    resync(network) {
      listeners.get(network)?.listener.resync();
    },
  };
}
