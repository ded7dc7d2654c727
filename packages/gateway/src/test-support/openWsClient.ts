import WebSocket from 'ws';

/** How a WebSocket connection ended: its close code and reason, and when (epoch ms). */
export interface WsClosed {
  readonly code: number;
  readonly reason: string;
  readonly at: number;
}

/** A JSON-RPC client over one real WebSocket connection, for tests. */
export interface WsTestClient {
  readonly ws: WebSocket;
  /** Every message received that answered no call of `call` (notifications, id-less errors). */
  readonly unmatched: any[];
  /** Resolves when the connection closes. */
  readonly closed: Promise<WsClosed>;
  /** The close, once it happened. */
  closedWith(): WsClosed | undefined;
  /** One call; resolves with the whole response (or rejects when the connection closes first). */
  call(method: string, params?: unknown): Promise<any>;
  /** The subscription notifications received so far for `subscription` (eth `params.subscription`, Starknet `params.subscription_id`). */
  events(subscription: string): any[];
  close(): void;
}

/**
 * Opens a WebSocket to the gateway (optionally with an Origin or other headers) and waits until
 * it is open. Answers are matched to calls by id; everything else is kept in `unmatched`.
 *
 * @example
 * const c = await openWsClient(`${ws}/ws/v3/${key}`);
 * const sub = (await c.call('eth_subscribe', ['newHeads'])).result;
 * const { code, reason } = await c.closed;
 */
export async function openWsClient(
  url: string,
  options: { origin?: string; headers?: Record<string, string> } = {},
): Promise<WsTestClient> {
  const ws = new WebSocket(url, {
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const unmatched: any[] = [];
  const waiting = new Map<number, { resolve: (m: any) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let closedWith: WsClosed | undefined;
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const w = typeof m?.id === 'number' ? waiting.get(m.id) : undefined;
    if (w) {
      waiting.delete(m.id);
      w.resolve(m);
    } else unmatched.push(m);
  });
  const closed = new Promise<WsClosed>((resolve) =>
    ws.once('close', (code, reason) => {
      closedWith = { code, reason: reason.toString(), at: Date.now() };
      for (const w of waiting.values()) w.reject(new Error(`closed ${code} ${reason}`));
      waiting.clear();
      resolve(closedWith);
    }),
  );
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return {
    ws,
    unmatched,
    closed,
    closedWith: () => closedWith,
    call(method, params = []) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error('not open'));
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    },
    events: (subscription) =>
      unmatched.filter(
        (m) => m?.params !== undefined && (m.params.subscription ?? m.params.subscription_id) === subscription,
      ),
    close: () => ws.close(),
  };
}
