import { toWireError } from '../errors/toWireError.js';
import type { CallContext } from '../families/FamilyHandler.js';
import { isItemError, parseRpcPayload } from '../jsonrpc/parseRpcPayload.js';
import { serializeResponse } from '../jsonrpc/RawJson.js';
import type { RpcRequest, RpcResponse } from '../jsonrpc/types.js';
import type { Network } from '../network/createNetwork.js';
import { handleRpcRequest } from './handleRpcRequest.js';

/** What to write back: a JSON body (or none, for notifications only) and its HTTP status. */
export interface RpcReply {
  status: number;
  body: string | undefined;
}

/** Answers one valid request (the pipeline by default; WebSocket adds subscriptions). */
export type AnswerRequest = (request: RpcRequest) => Promise<RpcResponse | undefined>;

/**
 * A whole JSON-RPC body (single or batch) through the pipeline, for HTTP and WebSocket alike.
 * Batch items run concurrently and are answered in request order; notifications get no entry.
 *
 * @example
 * await handleRpcBody(network, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { transport: 'http', dev: true }, 100)
 */
export async function handleRpcBody(
  network: Network,
  body: string,
  ctx: CallContext,
  maxBatch: number,
  answerRequest: AnswerRequest = (request) => handleRpcRequest(network, request, ctx),
): Promise<RpcReply> {
  let payload: ReturnType<typeof parseRpcPayload>;
  try {
    payload = parseRpcPayload(body, maxBatch);
  } catch (err) {
    const { error } = toWireError(err);
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: null, error }) };
  }
  if (payload.kind === 'single') {
    const response = await answer(payload.item, answerRequest);
    return { status: 200, body: response === undefined ? undefined : serializeResponse(response) };
  }
  const responses = await Promise.all(payload.items.map((item) => answer(item, answerRequest)));
  const present = responses.filter((r): r is RpcResponse => r !== undefined);
  return { status: 200, body: present.length === 0 ? undefined : `[${present.map(serializeResponse).join(',')}]` };
}

function answer(
  item: Parameters<typeof isItemError>[0],
  answerRequest: AnswerRequest,
): Promise<RpcResponse | undefined> | RpcResponse {
  if (isItemError(item)) return { jsonrpc: '2.0', id: item.id, error: toWireError(item.invalid).error };
  return answerRequest(item);
}
