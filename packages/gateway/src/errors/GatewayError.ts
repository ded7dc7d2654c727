/**
 * The one error base class of the gateway. Every failure that reaches a client is a
 * GatewayError (or is turned into one by {@link toWireError}): it carries a stable
 * JSON-RPC `code`, the HTTP status to answer with when it ends a whole request, a short
 * message a person can act on, optional `data`, and the `cause` for logs.
 *
 * Messages never contain API keys, secrets or upstream URLs.
 *
 * @example
 * throw new GatewayError('INVALID_PARAMS', 'params[0] (address): expected 20 bytes of hex');
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: ErrorKind;
  readonly code: number;
  readonly httpStatus: number;
  readonly data: unknown;
  /** For limits: how long the client should wait (the Retry-After header). */
  readonly retryAfterSeconds: number | undefined;
  /**
   * For refusals: the rule or limit that refused (`origin`, `method`, `rate`, `daily`, …), kept
   * for usage and the request explorer; not written to the wire by itself.
   */
  readonly refusal: string | undefined;

  constructor(
    kind: ErrorKind,
    message: string,
    options: {
      data?: unknown;
      cause?: unknown;
      retryAfterSeconds?: number;
      httpStatus?: number;
      refusal?: string;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const spec = ERROR_KINDS[kind];
    this.kind = kind;
    this.code = spec.code;
    this.httpStatus = options.httpStatus ?? spec.httpStatus;
    this.data = options.data;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.refusal = options.refusal;
  }
}

/**
 * Every error the gateway produces, with its JSON-RPC code and HTTP status.
 * `docs/errors.md` has one anchor per kind.
 */
export const ERROR_KINDS = {
  PARSE_ERROR: { code: -32700, httpStatus: 200 },
  INVALID_REQUEST: { code: -32600, httpStatus: 200 },
  METHOD_NOT_FOUND: { code: -32601, httpStatus: 200 },
  INVALID_PARAMS: { code: -32602, httpStatus: 200 },
  INTERNAL_ERROR: { code: -32603, httpStatus: 200 },
  /** All upstreams of the network failed (transport error, timeout, 5xx, bad body). */
  UPSTREAM_UNAVAILABLE: { code: -32603, httpStatus: 200 },
  /** Missing, unknown or revoked API key (or wrong secret). */
  UNAUTHORIZED: { code: -32001, httpStatus: 401 },
  /** Request rejected by the key's restrictions. */
  FORBIDDEN: { code: -32002, httpStatus: 403 },
  /** No network matches the Host header or path prefix. */
  NETWORK_NOT_FOUND: { code: -32004, httpStatus: 404 },
  /** The path exists on no route. */
  NOT_FOUND: { code: -32004, httpStatus: 404 },
  METHOD_NOT_ALLOWED: { code: -32600, httpStatus: 405 },
  UNSUPPORTED_MEDIA_TYPE: { code: -32600, httpStatus: 415 },
  PAYLOAD_TOO_LARGE: { code: -32600, httpStatus: 413 },
  /** Over the key's per-second rate or daily credits, or too many requests waiting. */
  RATE_LIMITED: { code: -32005, httpStatus: 429 },
  /**
   * Every upstream that could answer the call is at its request budget (`rateLimit`, the
   * provider's plan) until past the request's deadline: the key is not over its own limits.
   */
  UPSTREAM_BUDGET: { code: -32005, httpStatus: 429 },
  /** The client took too long to send its request. */
  REQUEST_TIMEOUT: { code: -32600, httpStatus: 408 },
  /**
   * An eth filter id that is not one of the calling key's live filters on this network (unknown,
   * another key's, expired, or lost by its node): worded as nodes word it, for every case alike.
   */
  FILTER_NOT_FOUND: { code: -32000, httpStatus: 200 },
  /** The key holds `limits.maxFiltersPerKey` live eth filters already. */
  TOO_MANY_FILTERS: { code: -32005, httpStatus: 200 },
  /**
   * An `eth_getLogs` / `starknet_getEvents` range wider than the key's plan (or the network)
   * allows (`maxLogsBlockRange`): refused before any upstream is asked, with the range to retry with.
   */
  LOGS_RANGE_TOO_LARGE: { code: -32005, httpStatus: 200 },
  /** An `eth_getLogs` answer would hold more logs than `maxLogsResults`: with the range that fits. */
  LOGS_TOO_MANY_RESULTS: { code: -32005, httpStatus: 200 },
  /**
   * A state read at a height (`eth_getBalance`, `eth_call`… at a block number) that no upstream
   * of the network holds (pruned nodes only, or every one answered it lacks the state).
   */
  BLOCK_UNAVAILABLE: { code: -32000, httpStatus: 200 },
  /** The consensus participants did not agree (`consensus:` rule, `onDispute: error`), or too few answered. */
  CONSENSUS_DISPUTE: { code: -32603, httpStatus: 200 },
  /** The database did not answer in time (or is known to be away) and the answer needs it (e.g. a key not seen before). */
  DATABASE_UNAVAILABLE: { code: -32603, httpStatus: 503 },
} as const satisfies Record<string, { code: number; httpStatus: number }>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/**
 * An error in a protocol's own terms (e.g. Starknet's 31 PAGE_SIZE_TOO_BIG): code, message
 * and data reach the client exactly as the protocol defines them.
 */
export class ProtocolRpcError extends Error {
  override readonly name: string = 'ProtocolRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** An error returned by an upstream node as a JSON-RPC error object; passed to the client as it is. */
export class UpstreamRpcError extends ProtocolRpcError {
  override readonly name = 'UpstreamRpcError';
}
