import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log/createLogger.js';
import type { Credentials, RequestContext } from '../pipeline/RequestContext.js';
import type { Transport } from '../usage/UsageEvent.js';

/** Request ids: a random per-process prefix and a counter (unique, cheap, sortable within a process). */
const PREFIX = randomBytes(4).toString('hex');
let counter = 0;

/** A fresh request id. */
export const nextRequestId = (): string => `${PREFIX}-${(counter++).toString(36)}`;

/**
 * Builds the one RequestContext of a request from what the edge read: transport, network,
 * credentials, the caller's origin, user agent and address, a deadline, and an abort signal
 * (`signal`; the caller aborts it when the client goes away). `key` is set by authenticate.
 *
 * @example
 * const ac = new AbortController();
 * const ctx = createRequestContext(req, { transport: 'http', network: 'eth-devnet', credentials, timeoutMs: 60_000, signal: ac.signal, log });
 */
export function createRequestContext(
  req: IncomingMessage,
  init: {
    transport: Transport;
    network: string;
    credentials: Credentials;
    timeoutMs: number;
    signal: AbortSignal;
    log: Logger;
  },
): RequestContext {
  const startedAt = Date.now();
  return {
    requestId: nextRequestId(),
    transport: init.transport,
    network: init.network,
    key: undefined,
    credentials: init.credentials,
    origin: req.headers.origin,
    userAgent: req.headers['user-agent'],
    ip: req.socket.remoteAddress ?? '',
    deadline: startedAt + init.timeoutMs,
    signal: init.signal,
    log: init.log,
    startedAt,
    enableFailover: req.headers['enable-failover'] === 'true',
  };
}
