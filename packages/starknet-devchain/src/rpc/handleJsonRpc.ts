/** JSON-RPC 2.0 envelope handling: single requests, batches, named and positional params. */
import { DevchainError, ErrorCode } from '../errors.js';
import { type MethodSpec, methodTable } from './methodTable.js';
import { toJsonRpcError } from './toJsonRpcError.js';
import type { MethodContext, Params } from './types.js';

type Id = string | number | null;

function handleOne(ctx: MethodContext, req: unknown): Record<string, unknown> | undefined {
  let id: Id = null;
  try {
    if (typeof req !== 'object' || req === null || Array.isArray(req))
      throw new DevchainError(ErrorCode.INVALID_REQUEST);
    const r = req as Record<string, unknown>;
    if (typeof r.id === 'string' || typeof r.id === 'number') id = r.id;
    const isNotification = !('id' in r);
    if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') throw new DevchainError(ErrorCode.INVALID_REQUEST);
    const spec: MethodSpec | undefined = Object.hasOwn(methodTable, r.method)
      ? methodTable[r.method as keyof typeof methodTable]
      : undefined;
    if (!spec) throw new DevchainError(ErrorCode.METHOD_NOT_FOUND, { data: r.method });
    let params: Params;
    if (r.params === undefined || r.params === null) params = {};
    else if (Array.isArray(r.params)) {
      if (r.params.length > spec.params.length)
        throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: 'too many positional params' });
      params = {};
      r.params.forEach((v, i) => {
        params[spec.params[i]!] = v;
      });
    } else if (typeof r.params === 'object') params = r.params as Params;
    else throw new DevchainError(ErrorCode.INVALID_PARAMS);
    const result = spec.handler(ctx, params);
    if (isNotification) return undefined;
    return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
  } catch (e) {
    return { jsonrpc: '2.0', id, error: toJsonRpcError(e) };
  }
}

/**
 * Handle a parsed JSON-RPC payload (object or batch array); returns the response payload, or
 * undefined when nothing is to be sent (notifications only).
 */
export function handleJsonRpc(ctx: MethodContext, payload: unknown): unknown {
  if (Array.isArray(payload)) {
    if (payload.length === 0)
      return { jsonrpc: '2.0', id: null, error: toJsonRpcError(new DevchainError(ErrorCode.INVALID_REQUEST)) };
    const out = payload.map((r) => handleOne(ctx, r)).filter((r) => r !== undefined);
    return out.length > 0 ? out : undefined;
  }
  return handleOne(ctx, payload);
}
