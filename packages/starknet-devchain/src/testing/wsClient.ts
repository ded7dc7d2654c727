/** Test helper: a JSON-RPC WebSocket client that keeps every notification it receives. */
import WebSocket from 'ws';

/** A notification as received (`params.subscription_id` and `params.result`). */
export interface Notification {
  method: string;
  params: { subscription_id: string; result: any };
}

/** A connected client. */
export interface WsClient {
  /** One call; resolves with the whole response envelope (result or error). */
  call(
    method: string,
    params?: unknown,
  ): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }>;
  /** One call; the result, or throws with the error code in the message. */
  result(method: string, params?: unknown): Promise<any>;
  /** Every notification received so far, in order. */
  readonly notifications: Notification[];
  /** Waits until `count` notifications matching `filter` have arrived (at most `timeoutMs`); returns them. */
  waitFor(filter: (n: Notification) => boolean, count?: number, timeoutMs?: number): Promise<Notification[]>;
  /** The close code, once closed. */
  readonly closed: Promise<number>;
  close(): void;
  readonly socket: WebSocket;
}

/**
 * Opens a WebSocket JSON-RPC client on `url`.
 *
 * @example
 * const c = await wsClient(dc.wsUrl);
 * const id = await c.result('starknet_subscribeNewHeads', {});
 * const [head] = await c.waitFor((n) => n.params.subscription_id === id);
 */
export async function wsClient(url: string): Promise<WsClient> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (msg: any) => void>();
  const notifications: Notification[] = [];
  let wake: Array<() => void> = [];
  socket.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.method !== undefined && msg.id === undefined) {
      notifications.push(msg);
      const w = wake;
      wake = [];
      for (const f of w) f();
      return;
    }
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const client: WsClient = {
    call(method, params = {}) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    },
    async result(method, params = {}) {
      const r = await client.call(method, params);
      if (r.error)
        throw new Error(`${method}: ${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data ?? '')}`);
      return r.result;
    },
    notifications,
    async waitFor(filter, count = 1, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = notifications.filter(filter);
        if (found.length >= count) return found;
        const left = end - Date.now();
        if (left <= 0) {
          throw new Error(
            `timed out waiting for ${count} notifications (got ${found.length}): ${JSON.stringify(found).slice(0, 500)}`,
          );
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          wake.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    closed,
    close: () => socket.close(),
    socket,
  };
  return client;
}
