import { GatewayError } from '../errors/GatewayError.js';
import { toWireError, type WireError } from '../errors/toWireError.js';

/** What any transport needs to write one refusal or failure. */
export interface WireAnswer {
  readonly status: number;
  readonly error: WireError;
  /** Extra headers: Retry-After for limits, WWW-Authenticate for IPFS credentials. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The one mapping from any thrown value to what goes on the wire: the JSON-RPC error object,
 * the HTTP status, and the headers a refusal carries (Retry-After on 429).
 *
 * @example
 * wireError(new GatewayError('RATE_LIMITED', 'project ID request rate exceeded', { data: { backoff_seconds: 0.4 } }))
 * // { status: 429, error: { code: -32005, … }, headers: { 'retry-after': '1' } }
 */
export function wireError(err: unknown): WireAnswer {
  const { error, httpStatus } = toWireError(err);
  const headers: Record<string, string> = {};
  if (err instanceof GatewayError && err.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  }
  return { status: httpStatus, error, headers };
}
