import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A listener of its own that serves `/metrics` and nothing else. */
export interface MetricsListener {
  /** http://host:port/metrics */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a plain node:http server on `listen` that answers `/metrics` with `handler` and 404
 * for any other path: for operators who scrape on a private interface (e.g.
 * `metrics.listen: 10.0.0.5:9464`) rather than on the public listener.
 *
 * @example
 * const m = await startMetricsListener({ host: '127.0.0.1', port: 9464 }, createMetricsHandler(metrics, { log }));
 * await m.close();
 */
export async function startMetricsListener(
  listen: { readonly host: string; readonly port: number },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<MetricsListener> {
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 10_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n');
  });
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
    url: `http://${shown}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
