import type { WireError } from '../errors/toWireError.js';

/** A JSON-RPC id as the client sent it. `undefined` marks a notification. */
export type RpcId = string | number | null;

/** One validated JSON-RPC request. */
export interface RpcRequest {
  id: RpcId | undefined;
  method: string;
  params: unknown;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: WireError };
