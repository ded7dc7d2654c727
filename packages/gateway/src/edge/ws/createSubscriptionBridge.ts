import WebSocket from 'ws';
import { GatewayError } from '../../errors/GatewayError.js';

/**
 * One client connection's link to the upstream's WebSocket, opened on the first
 * eth_subscribe. Subscription notifications are relayed to the client as they arrive;
 * closing the bridge (when the client goes away) closes the upstream socket, which ends
 * every upstream subscription it holds.
 */
export interface SubscriptionBridge {
  call(method: string, params: unknown): Promise<unknown>;
  close(): void;
}

/**
 * @param upstreamUrl the network's upstream WebSocket URL
 * @param onNotification receives each raw `eth_subscription` message text
 * @param onLost called when the upstream socket closes while the client is still connected
 */
export function createSubscriptionBridge(
  upstreamUrl: string,
  onNotification: (text: string) => void,
  onLost: () => void,
): SubscriptionBridge {
  let socket: WebSocket | undefined;
  let opened: Promise<WebSocket> | undefined;
  let closed = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

  function failAll(err: unknown) {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  }

  function open(): Promise<WebSocket> {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(upstreamUrl, { perMessageDeflate: false });
      socket = ws;
      ws.once('open', () => resolve(ws));
      ws.once('error', () => reject(unavailable()));
      ws.on('message', (data) => {
        const text = data.toString();
        let msg: {
          id?: unknown;
          method?: unknown;
          result?: unknown;
          error?: { code: number; message: string; data?: unknown };
        };
        try {
          msg = JSON.parse(text);
        } catch {
          return;
        }
        if (msg.method === 'eth_subscription') return onNotification(text);
        if (typeof msg.id === 'number') {
          const p = pending.get(msg.id);
          if (!p) return;
          pending.delete(msg.id);
          if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { rpc: msg.error }));
          else p.resolve(msg.result);
        }
      });
      ws.on('close', () => {
        failAll(unavailable());
        if (!closed) onLost();
      });
    });
    opened.catch(() => {});
    return opened;
  }

  return {
    async call(method, params) {
      const ws = await open();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    },
    close() {
      closed = true;
      failAll(unavailable());
      socket?.close();
    },
  };
}

function unavailable(): GatewayError {
  return new GatewayError('UPSTREAM_UNAVAILABLE', 'upstream unavailable: the subscription connection failed', {
    data: { reason: 'socket' },
  });
}
