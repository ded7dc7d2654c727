import type { CallContext, FamilyHandler } from '../../families/FamilyHandler.js';
import { type ItemError, isItemError, parseRpcPayload } from '../../jsonrpc/parseRpcPayload.js';
import type { RpcRequest } from '../../jsonrpc/types.js';
import type { RpcCall } from '../RpcCall.js';

/** A parsed body: its calls, and whether it was a batch (answered with an array). */
export interface PreparedBody {
  readonly batch: boolean;
  readonly calls: RpcCall[];
}

/**
 * Stages "parse" and "validate": the body's envelope (single or batch; a body that is not JSON,
 * an empty batch or one over `maxBatch` throws), then each request against its family's method
 * table (unknown methods -32601, bad params -32602 are set on the call, not thrown).
 *
 * @example
 * const { batch, calls } = prepareCalls(body, network.family, { transport: 'http', dev: true }, 100);
 */
export function prepareCalls(
  body: string,
  family: FamilyHandler,
  callCtx: CallContext,
  maxBatch: number,
): PreparedBody {
  const payload = parseRpcPayload(body, maxBatch);
  // one call (the common case): no list of items to map
  if (payload.kind === 'single') return { batch: false, calls: [prepareCall(payload.item, family, callCtx)] };
  return { batch: true, calls: payload.items.map((item) => prepareCall(item, family, callCtx)) };
}

/** One item: an envelope error as it is, or a request validated against its family's method table. */
function prepareCall(item: RpcRequest | ItemError, family: FamilyHandler, callCtx: CallContext): RpcCall {
  if (isItemError(item)) {
    return {
      method: '(invalid)',
      id: item.id,
      request: undefined,
      prepared: undefined,
      error: item.invalid,
      result: undefined,
      upstream: undefined,
      credits: 0,
    };
  }
  const call: RpcCall = {
    method: item.method,
    id: item.id,
    request: item,
    prepared: undefined,
    error: undefined,
    result: undefined,
    upstream: undefined,
    credits: 0,
  };
  try {
    call.prepared = family.prepare(item, callCtx);
  } catch (err) {
    call.error = err;
  }
  return call;
}
