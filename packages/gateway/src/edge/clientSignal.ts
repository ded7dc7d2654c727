import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';

const signals = new WeakMap<Socket, AbortSignal>();

/**
 * The abort signal of a client connection: aborted when the socket closes. One per connection,
 * not per request (a keep-alive connection carries thousands of requests, and HTTP/1.1 has one
 * in flight at a time), so the hot path allocates no AbortController; every request on the
 * connection shares it (upstream calls, waits for a slot, pauses).
 *
 * @example
 * const signal = clientSignal(req.socket); // aborts the upstream call if the client goes away
 */
export function clientSignal(socket: Socket): AbortSignal {
  let signal = signals.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    signal = controller.signal;
    // many short-lived listeners over the connection's life: not a leak
    setMaxListeners(0, signal);
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
    signals.set(socket, signal);
  }
  return signal;
}
