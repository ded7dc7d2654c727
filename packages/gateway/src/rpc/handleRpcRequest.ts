import { toWireError } from '../errors/toWireError.js';
import type { CallContext } from '../families/FamilyHandler.js';
import type { RpcRequest, RpcResponse } from '../jsonrpc/types.js';
import type { Network } from '../network/createNetwork.js';

/**
 * One JSON-RPC request through the pipeline: validate against the family's table, forward,
 * normalise. Returns the response, or undefined for a notification (no id). A result that
 * needs no normalisation may be a RawJson (serialise with serializeResponse).
 * Never throws: every failure becomes a JSON-RPC error via toWireError.
 */
export async function handleRpcRequest(
  network: Network,
  request: RpcRequest,
  ctx: CallContext,
): Promise<RpcResponse | undefined> {
  let response: RpcResponse;
  try {
    const call = network.family.prepare(request, ctx);
    const { finish } = call;
    const result = await network.forward(call.upstreamMethod, call.upstreamParams, call.policy, finish === undefined);
    response = { jsonrpc: '2.0', id: request.id ?? null, result: finish ? finish(result) : result };
  } catch (err) {
    response = { jsonrpc: '2.0', id: request.id ?? null, error: toWireError(err).error };
  }
  return request.id === undefined ? undefined : response;
}
