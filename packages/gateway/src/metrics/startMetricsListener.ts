import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

/** A listener of its own that serves `/metrics` and nothing else. */
export interface MetricsListener {
  /** http://host:port/metrics (https:// with TLS) */
  readonly url: string;
  /** The listener (an `https.Server` with TLS, whose certificate a SIGHUP reload replaces). */
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Starts a node:http server on `listen` that answers `/metrics` with `handler` and 404
 * for any other path: for operators who scrape on a private interface (e.g.
 * `metrics.listen: 10.0.0.5:9464`) rather than on the public listener. With `tls` (the gateway's
 * certificate when `tls` is configured) it is a node:https server: every listener of a TLS
 * gateway speaks TLS.
 *
 * @example
 * const m = await startMetricsListener({ host: '127.0.0.1', port: 9464 }, createMetricsHandler(metrics, { log }));
 * await m.close();
 */
export async function startMetricsListener(
  listen: { readonly host: string; readonly port: number },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  tls?: { readonly cert: string; readonly key: string },
): Promise<MetricsListener> {
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n');
  };
  const options = { keepAliveTimeout: 65_000, headersTimeout: 10_000 };
  const server: Server = tls
    ? (createHttpsServer(
        { ...options, cert: tls.cert, key: tls.key, handshakeTimeout: 10_000 },
        serve,
      ) as unknown as Server)
    : createServer(options, serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  const shown = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  return {
    url: `${tls ? 'https' : 'http'}://${shown}:${port}/metrics`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
