import { answerHead, idText } from './answerHead.js';
import { RawId } from './RawId.js';
import { RawJson } from './RawJson.js';
import type { RpcId } from './types.js';

/**
 * Serialises a JSON-RPC response. A {@link RawJson} result is spliced in as it is (never
 * re-parsed), and a {@link RawId} id is spliced in as the client's exact text. Anything else
 * takes the plain `JSON.stringify` path.
 *
 * @example
 * serializeResponse({ jsonrpc: '2.0', id: new RawId('1e400'), result: new RawJson('"0x1"') });
 * // '{"jsonrpc":"2.0","id":1e400,"result":"0x1"}'
 * serializeResponse({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'nope' } });
 * // '{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"nope"}}'
 */
export function serializeResponse(response: {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: unknown;
}): string {
  const { id, result } = response;
  const rawResult = result instanceof RawJson;
  if (!(id instanceof RawId) && !rawResult) return JSON.stringify(response);
  const text = id instanceof RawId ? id.text : (JSON.stringify(id) ?? 'null');
  if (rawResult) return `{"jsonrpc":"2.0","id":${text},"result":${result.text}}`;
  if (response.error !== undefined) {
    return `{"jsonrpc":"2.0","id":${text},"error":${JSON.stringify(response.error)}}`;
  }
  return `{"jsonrpc":"2.0","id":${text},"result":${JSON.stringify(result) ?? 'null'}}`;
}

/**
 * A success answer's text, `{"jsonrpc":"2.0","id":…,"result":…}`, without building the response
 * object: the same text {@link serializeResponse} writes for `{ jsonrpc, id, result }`.
 *
 * @example
 * serializeResult(1, new RawJson('"0x10"')) // '{"jsonrpc":"2.0","id":1,"result":"0x10"}'
 */
export function serializeResult(id: RpcId, result: unknown): string {
  if (result instanceof RawJson) return `${answerHead(id)}${result.text}}`;
  if (!(id instanceof RawId)) return JSON.stringify({ jsonrpc: '2.0', id, result });
  return `{"jsonrpc":"2.0","id":${idText(id)},"result":${JSON.stringify(result) ?? 'null'}}`;
}
