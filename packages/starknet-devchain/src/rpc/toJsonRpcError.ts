/** The one place where failures become JSON-RPC error objects. */
import { DevchainError, ErrorCode } from '../errors.js';

/** A JSON-RPC error object. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** Map any thrown value to a JSON-RPC error (unknown failures become UNEXPECTED_ERROR with a message). */
export function toJsonRpcError(e: unknown): JsonRpcError {
  if (e instanceof DevchainError) {
    const out: JsonRpcError = { code: e.code, message: e.message };
    if (e.data !== undefined) out.data = e.data;
    return out;
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: ErrorCode.UNEXPECTED_ERROR, message: 'An unexpected error occurred', data: message };
}
