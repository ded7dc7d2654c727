import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** A WebSocket proxy in front of an upstream's WebSocket, for tests: counts and faults. */
export interface WsProxy {
  /** ws://127.0.0.1:port */
  readonly url: string;
  /** Upstream connections open through the proxy now. */
  readonly open: number;
  /** JSON-RPC methods the gateway sent through the proxy, in order (e.g. eth_subscribe). */
  readonly methods: string[];
  /** Cuts every connection now. */
  dropAll(): void;
  /** While true, new connections are refused (HTTP 503 on the upgrade). */
  refuse(on: boolean): void;
  /** Answers the subscribe requests `refused` picks with a JSON-RPC error instead of relaying them (undefined: relay all). */
  refuseSubscribe(refused: ((params: unknown) => boolean) | undefined): void;
  /** Stops reading every open connection (a peer that hangs: no answers, no pongs). */
  freeze(): void;
  close(): Promise<void>;
}

/**
 * Starts a message-level WebSocket proxy to `target` on a free loopback port: every message is
 * relayed both ways, the methods of the requests going upstream are recorded, and it can drop,
 * refuse or freeze connections on demand.
 *
 * @example
 * const proxy = await startWsProxy(anvil.ws);
 * // point the network's upstream `ws` at proxy.url, then:
 * proxy.dropAll(); proxy.refuse(true); …; proxy.refuse(false);
 */
export async function startWsProxy(target: string): Promise<WsProxy> {
  let refusing = false;
  let refusedSubscribe: ((params: unknown) => boolean) | undefined;
  const methods: string[] = [];
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    perMessageDeflate: false,
    verifyClient: (_info, done) => done(!refusing, 503),
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (client) => {
    const upstream = new WebSocket(target, { perMessageDeflate: false });
    const pair = { client, upstream };
    pairs.add(pair);
    const backlog: string[] = [];
    const done = () => {
      pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    upstream.on('open', () => {
      for (const m of backlog) upstream.send(m);
      backlog.length = 0;
    });
    client.on('message', (data) => {
      const text = data.toString();
      try {
        const msg = JSON.parse(text) as { id?: unknown; method?: unknown; params?: unknown };
        if (typeof msg.method === 'string') methods.push(msg.method);
        if (msg.method === 'eth_subscribe' && refusedSubscribe?.(msg.params)) {
          const error = { code: -32000, message: 'subscription refused by the test proxy' };
          client.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error }));
          return;
        }
      } catch {
        // relayed as it is
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else backlog.push(text);
    });
    upstream.on('message', (data) => {
      if (client.readyState === WebSocket.OPEN) client.send(data.toString());
    });
    client.on('close', done).on('error', done);
    upstream.on('close', done).on('error', done);
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get open() {
      return pairs.size;
    },
    methods,
    dropAll() {
      for (const p of [...pairs]) {
        p.client.terminate();
        p.upstream.terminate();
      }
    },
    refuse(on) {
      refusing = on;
    },
    refuseSubscribe(refused) {
      refusedSubscribe = refused;
    },
    freeze() {
      for (const p of pairs) {
        (p.client as unknown as { _socket: { pause(): void } })._socket.pause();
        p.upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of [...pairs]) p.client.terminate();
        server.close(() => resolve());
      }),
  };
}
