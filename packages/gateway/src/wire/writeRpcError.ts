import type { ServerResponse } from 'node:http';
import { CORS_HEADERS } from './corsHeaders.js';
import { wireError } from './wireError.js';

/**
 * Ends an HTTP exchange with a whole-request JSON-RPC error (`id: null`): 400/401/403/404/405/
 * 408/413/415/429, with CORS headers so browsers can read it.
 *
 * @example
 * writeRpcError(res, new GatewayError('UNAUTHORIZED', 'invalid API key: unknown or revoked'));
 */
export function writeRpcError(
  res: ServerResponse,
  err: unknown,
  options: { status?: number; headers?: Readonly<Record<string, string>>; requestId?: string } = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = wireError(err);
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: answer.error });
  res.writeHead(options.status ?? answer.status, {
    ...CORS_HEADERS,
    ...answer.headers,
    ...options.headers,
    ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
