import { GatewayError, ProtocolRpcError } from './GatewayError.js';

/** A JSON-RPC 2.0 error object. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The one place that turns any thrown value into a JSON-RPC error object and an HTTP status.
 * HTTP, batch and WebSocket all use it, so they answer the same way.
 * Unknown errors become -32603 with a generic message: their text may hold internals.
 *
 * @example
 * const { error, httpStatus } = toWireError(err); // { error: { code: -32602, … }, httpStatus: 200 }
 */
export function toWireError(err: unknown): { error: WireError; httpStatus: number } {
  if (err instanceof GatewayError) {
    const error: WireError = { code: err.code, message: err.message };
    if (err.data !== undefined) error.data = err.data;
    return { error, httpStatus: err.httpStatus };
  }
  if (err instanceof ProtocolRpcError) {
    const error: WireError = { code: err.code, message: err.message };
    if (err.data !== undefined) error.data = err.data;
    return { error, httpStatus: 200 };
  }
  return { error: { code: -32603, message: 'internal error' }, httpStatus: 500 };
}
