import type { IncomingMessage, ServerResponse } from 'node:http';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';

/** Kubo's error codes: 0 normal, 1 client error. */
export type KuboErrorCode = 0 | 1;

/**
 * Answers with Kubo's JSON error shape, `{"Message","Code","Type":"error"}` and a newline,
 * and discards whatever is left of the request body so the connection stays usable.
 *
 * @example
 * writeIpfsError(req, res, 403, 'command "repo/gc" is not allowed on this gateway', 1);
 */
export function writeIpfsError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  code: KuboErrorCode,
  headers: Record<string, string> = {},
): void {
  const body = `${JSON.stringify({ Message: message, Code: code, Type: 'error' })}\n`;
  res.writeHead(status, {
    ...IPFS_CORS_HEADERS,
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
  discardRequestBody(req);
}

/** A plain-text answer in Go's `http.Error` shape (the 404 and 405 of Kubo's router). */
export function writeIpfsText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    ...IPFS_CORS_HEADERS,
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
  discardRequestBody(req);
}

/** At most this much of an unwanted body is read and dropped; beyond it the connection is closed. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a request body answered early (the client may still be
 * sending). Past {@link DISCARD_LIMIT} the socket is closed instead.
 */
export function discardRequestBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  req.unpipe();
  req.on('data', (c: Buffer) => {
    dropped += c.byteLength;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
}
