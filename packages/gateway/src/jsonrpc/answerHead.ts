import { RawId } from './RawId.js';
import type { RpcId } from './types.js';

/**
 * The text of a JSON-RPC success answer up to its result, `{"jsonrpc":"2.0","id":<id>,"result":`:
 * the result's JSON and a closing `}` complete it. The id is spliced in as the client sent it (a
 * {@link RawId} as its exact text).
 *
 * @example
 * answerHead(7)            // '{"jsonrpc":"2.0","id":7,"result":'
 * answerHead(new RawId('1e400')) // '{"jsonrpc":"2.0","id":1e400,"result":'
 */
export function answerHead(id: RpcId): string {
  return `{"jsonrpc":"2.0","id":${idText(id)},"result":`;
}

/** An id's JSON text: a RawId as sent, a safe integer without JSON.stringify, else JSON.stringify. */
export function idText(id: RpcId): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && !Object.is(id, -0)) return String(id);
  if (id instanceof RawId) return id.text;
  return JSON.stringify(id) ?? 'null';
}
