import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';

/**
 * Writes a dedicated IPFS gateway's error (`/ipfs-gateway/<name>/…`, `<name>.ipfs.<domain>`):
 * `text/plain` as gateways answer (Kubo's gateway does too), `<status> <reason>: <message>`, with
 * `Access-Control-Allow-Origin: *` (a page's `fetch` can read why), `Retry-After` when the error
 * carries one, and no body for HEAD. A {@link GatewayError} keeps its status (its message never
 * holds a key, a token or the node's URL; the database away is its 503 with `Retry-After: 1`); anything
 * else is a 500 whose cause is not shown. When the answer already started, the connection is reset
 * instead (the client sees it incomplete).
 *
 * @example
 * writeGatewayError(req, res, new GatewayError('NOT_FOUND', 'no such gateway', { httpStatus: 404 }));
 */
export function writeGatewayError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let status = 500;
  let message = 'internal error';
  let retryAfter: number | undefined;
  if (err instanceof GatewayError) {
    status = err.httpStatus >= 400 ? err.httpStatus : 500;
    message = err.message;
    retryAfter = err.retryAfterSeconds;
  }
  const body = Buffer.from(`${status} ${STATUS_CODES[status] ?? 'Error'}: ${message}\n`);
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(body.byteLength),
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
