import type { GatewayError } from '../errors/GatewayError.js';
import { toWireError } from '../errors/toWireError.js';

/** The JSON-RPC error body used for whole-request failures (401, 404, 405, 413, 415). */
export function errorBody(err: GatewayError): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: toWireError(err).error });
}
