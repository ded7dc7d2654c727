import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/createLogger.js';
import type { GatewayMetrics } from './createGatewayMetrics.js';

/**
 * The `GET /metrics` handler (Prometheus text format). With `authorize`, a request it refuses
 * gets 401 and `WWW-Authenticate: Bearer` (Prometheus sends the token with
 * `authorization: { credentials_file: <dataDir>/admin-token }`); without it the handler is
 * open, for a listener bound to a private interface. Other methods get 405.
 *
 * @example
 * const handler = createMetricsHandler(metrics, { authorize: createBearerAuthorizer((t) => accounts.verifyAdminToken(t)), log });
 * http.createServer(handler).listen(9464);
 */
export function createMetricsHandler(
  metrics: Pick<GatewayMetrics, 'scrape' | 'contentType'>,
  options: { authorize?: ((req: IncomingMessage) => Promise<boolean>) | undefined; log: Logger },
): (req: IncomingMessage, res: ServerResponse) => void {
  const { authorize, log } = options;
  const json = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    const body = JSON.stringify({
      error: { code: status === 401 ? 'unauthenticated' : 'method_not_allowed', message },
    });
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(res, 405, 'GET /metrics only', { allow: 'GET, HEAD' });
    }
    void (async () => {
      if (authorize && !(await authorize(req))) {
        return json(res, 401, 'send the admin token: Authorization: Bearer <admin token>', {
          'www-authenticate': 'Bearer realm="nodegate metrics"',
        });
      }
      const text = await metrics.scrape();
      res.writeHead(200, {
        'content-type': metrics.contentType,
        'content-length': Buffer.byteLength(text),
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : text);
    })().catch((err: unknown) => {
      log.error('metrics scrape failed', { error: err });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('metrics scrape failed\n');
    });
  };
}
