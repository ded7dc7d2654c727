import type { WireError } from '../errors/toWireError.js';
import type { RawId } from './RawId.js';

/**
 * A JSON-RPC id as the client sent it. A numeric id whose exact text a JavaScript number
 * cannot reproduce (`1e400`, `123456789012345678901234567890`, `-0`, `1.0`) is a
 * {@link RawId} holding that text; serialise responses with `serializeResponse` so it is
 * echoed byte for byte. `undefined` (on a request) marks a notification.
 */
export type RpcId = string | number | null | RawId;

/** One validated JSON-RPC request. */
export interface RpcRequest {
  id: RpcId | undefined;
  method: string;
  params: unknown;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: WireError };
