import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can stall, cut and restore. */
export interface TcpProxy {
  /** The loopback port clients connect to. */
  readonly port: number;
  /** `host:port` of the proxy, for building URLs (`redis://${proxy.address}`). */
  readonly address: string;
  /** What the proxy does now. */
  readonly state: 'open' | 'stalled' | 'cut';
  /**
   * Stops forwarding bytes in both directions while every socket stays open (a silent network:
   * no FIN, no RST). New connections are accepted and held. Bytes sent meanwhile are kept and
   * delivered on `restore()`, as TCP would once a partition heals.
   */
  stall(): void;
  /**
   * Resets every connection (both sides) and closes new ones as soon as they are accepted, until
   * `restore()`. Takes effect at once.
   */
  cut(): void;
  /** Forwards again: held bytes and held connections go through; new connections are forwarded. Takes effect at once. */
  restore(): void;
  /** Connections open through the proxy now. */
  connections(): number;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  upstream: Socket | undefined;
  /** Bytes each way held while stalled (or before the upstream connected). */
  readonly toUpstream: Buffer[];
  readonly toClient: Buffer[];
}

/**
 * Starts a TCP proxy on a free loopback port that forwards every connection to `target`, with
 * the faults a real network has: a stall (bytes stop, sockets stay open: what hangs clients
 * without a timeout) and a cut (connections reset, new ones refused). For fault tests through
 * real servers, never a mock of them.
 *
 * @example
 * const proxy = await createTcpProxy('127.0.0.1:6379'); // or a URL: 'redis://127.0.0.1:6379'
 * const redisUrl = `redis://${proxy.address}`;
 * proxy.stall(); // … requests must still answer within their deadline …
 * proxy.restore();
 */
export async function createTcpProxy(to: string | { host: string; port: number }): Promise<TcpProxy> {
  const target = typeof to === 'string' ? parseTarget(to) : to;
  const pairs = new Set<Pair>();
  let state: TcpProxy['state'] = 'open';

  const flush = (p: Pair) => {
    if (state !== 'open') return;
    if (p.upstream !== undefined && !p.upstream.connecting) {
      for (const b of p.toUpstream.splice(0)) p.upstream.write(b);
    }
    for (const b of p.toClient.splice(0)) p.client.write(b);
  };

  const drop = (p: Pair) => {
    pairs.delete(p);
    p.client.destroy();
    p.upstream?.destroy();
  };

  const connectUpstream = (p: Pair) => {
    const up = connect(target.port, target.host);
    p.upstream = up;
    up.setNoDelay(true);
    up.on('connect', () => flush(p));
    up.on('data', (b: Buffer) => {
      p.toClient.push(b);
      flush(p);
    });
    up.on('error', () => drop(p));
    up.on('close', () => drop(p));
  };

  const accept = (client: Socket) => {
    if (state === 'cut') {
      // refused: closed as soon as it is accepted (the client sees it connect, then end)
      client.destroy();
      return;
    }
    client.setNoDelay(true);
    const p: Pair = { client, upstream: undefined, toUpstream: [], toClient: [] };
    pairs.add(p);
    client.on('data', (b: Buffer) => {
      p.toUpstream.push(b);
      flush(p);
    });
    client.on('error', () => drop(p));
    client.on('close', () => drop(p));
    // a connection made during a stall reaches the server only once it is restored
    if (state === 'open') connectUpstream(p);
  };

  const server: Server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  return {
    get port() {
      return port;
    },
    get address() {
      return `127.0.0.1:${port}`;
    },
    get state() {
      return state;
    },
    stall() {
      if (state === 'open') state = 'stalled';
    },
    cut() {
      state = 'cut';
      for (const p of [...pairs]) {
        // a reset, not a polite close: the other side sees the connection die
        p.client.resetAndDestroy();
        p.upstream?.resetAndDestroy();
        drop(p);
      }
    },
    restore() {
      state = 'open';
      for (const p of pairs) {
        if (p.upstream === undefined) connectUpstream(p);
        else flush(p);
      }
    },
    connections: () => pairs.size,
    async close() {
      state = 'cut';
      for (const p of [...pairs]) drop(p);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `host:port`, or a URL with them (`redis://127.0.0.1:6379`, `postgres://postgres@127.0.0.1:5432/test`). */
function parseTarget(text: string): { host: string; port: number } {
  if (text.includes('://')) {
    const u = new URL(text);
    return { host: u.hostname, port: Number(u.port) };
  }
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at), port: Number(text.slice(at + 1)) };
}
