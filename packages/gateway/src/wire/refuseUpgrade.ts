import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { CORS_HEADERS } from './corsHeaders.js';
import { wireError } from './wireError.js';

/**
 * Refuses a WebSocket upgrade (or a request Node could not parse) with a plain HTTP answer
 * (status line, JSON-RPC error body), so a client learns why instead of seeing a dropped
 * socket; the socket is closed once the answer is written.
 *
 * @example
 * refuseUpgrade(socket, new GatewayError('UNAUTHORIZED', 'invalid API key: unknown or revoked'));
 */
export function refuseUpgrade(socket: Duplex, err: unknown, status?: number): void {
  const answer = wireError(err);
  const code = status ?? answer.status;
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: answer.error });
  const headers = { ...CORS_HEADERS, ...answer.headers };
  const lines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  if (socket.destroyed) return;
  // end() alone only half-closes: a client that keeps sending would hold the socket open
  socket.end(
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}\r\ncontent-type: application/json\r\n${lines}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
