import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeIpfsError } from '../ipfs/writeIpfsError.js';
import { wireError } from './wireError.js';

/**
 * Ends an IPFS exchange with Kubo's error shape, `{"Message","Code","Type":"error"}`, for a
 * refusal of the request path (401 with `WWW-Authenticate`, 403, 429 with Retry-After): the same
 * errors JSON-RPC clients get, in the shape Kubo clients read.
 *
 * @example
 * writeKuboError(req, res, new GatewayError('FORBIDDEN', 'rejected due to project ID settings'));
 */
export function writeKuboError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = wireError(err);
  const reason = (answer.error.data as { reason?: unknown } | undefined)?.reason;
  const message = typeof reason === 'string' ? `${answer.error.message}: ${reason}` : answer.error.message;
  writeIpfsError(req, res, answer.status, message, answer.status >= 500 ? 0 : 1, {
    ...answer.headers,
    ...(answer.status === 401 ? { 'www-authenticate': 'Basic realm="nodegate IPFS"' } : {}),
  });
}
