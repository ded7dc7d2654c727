/** Why an upstream call failed below the JSON-RPC level. */
export type TransportFailure = 'connect' | 'timeout' | 'socket' | 'http-status' | 'bad-response';

/**
 * A failure to get a JSON-RPC answer from an upstream: the next upstream may be tried.
 * `maybeDelivered` says whether the upstream could have received (and acted on) the request;
 * writes are only retried elsewhere when it is false. The message never names the upstream URL.
 */
export class UpstreamTransportError extends Error {
  override readonly name = 'UpstreamTransportError';
  constructor(
    readonly failure: TransportFailure,
    message: string,
    readonly maybeDelivered: boolean,
    options: { cause?: unknown; status?: number; retryAfterMs?: number | undefined } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
  readonly status: number | undefined;
  /** How long the upstream asked to wait (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
}
