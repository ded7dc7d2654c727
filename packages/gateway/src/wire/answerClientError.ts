import type { Duplex } from 'node:stream';
import { GatewayError } from '../errors/GatewayError.js';
import { refuseUpgrade } from './refuseUpgrade.js';

/**
 * Node's own answers to requests it cannot parse (bad request line, headers too large, headers
 * too slow) in the gateway's JSON-RPC shape instead of a bare `400 Bad Request`. Installed as the
 * server's `clientError` listener.
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (socket.destroyed || !socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    refuseUpgrade(socket, new GatewayError('INVALID_REQUEST', 'request headers too large: send smaller headers'), 431);
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    refuseUpgrade(
      socket,
      new GatewayError('INVALID_REQUEST', 'request timeout: the request headers did not arrive in time'),
      408,
    );
  } else {
    refuseUpgrade(
      socket,
      new GatewayError('INVALID_REQUEST', 'bad request: the HTTP request could not be parsed'),
      400,
    );
  }
}
