/** JSON-RPC 2.0 envelope handling: single requests, batches, named and positional params. */
import { DevchainError, ErrorCode } from '../errors.js';
import { forwardToOrigin, isForwardable } from '../fork/forwardToOrigin.js';
import { type MethodSpec, methodTable } from './methodTable.js';
import { toJsonRpcError } from './toJsonRpcError.js';
import type { MethodContext, Params } from './types.js';

type Id = string | number | null;
type Answer = Record<string, unknown> | undefined;

/** Whether a handler answered later (the postman's methods wait for their L1 node). */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function handleOne(ctx: MethodContext, req: unknown): Answer | Promise<Answer> {
  let id: Id = null;
  let isNotification = false;
  let method: string | undefined;
  let params: Params | undefined;
  const answer = (result: unknown): Answer =>
    isNotification ? undefined : { jsonrpc: '2.0', id, result: result === undefined ? null : result };
  const fail = (e: unknown): Answer => ({ jsonrpc: '2.0', id, error: toJsonRpcError(e) });
  try {
    if (typeof req !== 'object' || req === null || Array.isArray(req))
      throw new DevchainError(ErrorCode.INVALID_REQUEST);
    const r = req as Record<string, unknown>;
    if (typeof r.id === 'string' || typeof r.id === 'number') id = r.id;
    isNotification = !('id' in r);
    if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') throw new DevchainError(ErrorCode.INVALID_REQUEST);
    const spec: MethodSpec | undefined = Object.hasOwn(methodTable, r.method)
      ? methodTable[r.method as keyof typeof methodTable]
      : undefined;
    if (!spec) throw new DevchainError(ErrorCode.METHOD_NOT_FOUND, { data: r.method });
    method = r.method;
    if (r.params === undefined || r.params === null) params = {};
    else if (Array.isArray(r.params)) {
      if (r.params.length > spec.params.length)
        throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: 'too many positional params' });
      const named: Params = {};
      r.params.forEach((v, i) => {
        named[spec.params[i]!] = v;
      });
      params = named;
    } else if (typeof r.params === 'object') params = r.params as Params;
    else throw new DevchainError(ErrorCode.INVALID_PARAMS);
    const result = spec.handler(ctx, params);
    return isPromise(result) ? result.then(answer, fail) : answer(result);
  } catch (e) {
    // a forked chain: what is about the origin's blocks and transactions, the origin answers
    const origin = ctx.node.forkOrigin;
    if (origin && method !== undefined && params !== undefined && isForwardable(method, e)) {
      return forwardToOrigin(origin, method, params, e).then(answer, fail);
    }
    return fail(e);
  }
}

/**
 * Handle a parsed JSON-RPC payload (object or batch array); returns the response payload, or
 * undefined when nothing is to be sent (notifications only). The answer is a promise when a
 * method answers later (the postman's); every other method is handled synchronously.
 */
export function handleJsonRpc(ctx: MethodContext, payload: unknown): unknown {
  if (Array.isArray(payload)) {
    if (payload.length === 0)
      return { jsonrpc: '2.0', id: null, error: toJsonRpcError(new DevchainError(ErrorCode.INVALID_REQUEST)) };
    const answers = payload.map((r) => handleOne(ctx, r));
    const collect = (list: Answer[]) => {
      const out = list.filter((r) => r !== undefined);
      return out.length > 0 ? out : undefined;
    };
    return answers.some(isPromise) ? Promise.all(answers).then(collect) : collect(answers as Answer[]);
  }
  return handleOne(ctx, payload);
}
