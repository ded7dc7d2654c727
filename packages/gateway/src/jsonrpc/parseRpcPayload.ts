import { GatewayError } from '../errors/GatewayError.js';
import { RawId } from './RawId.js';
import { readPlainCall } from './readPlainCall.js';
import { MAX_JSON_DEPTH, scanJsonEnvelope } from './scanJsonEnvelope.js';
import type { RpcId, RpcRequest } from './types.js';

/** The parsed body: one request, or a batch whose items are each a request or an envelope error. */
export type RpcPayload =
  | { kind: 'single'; item: RpcRequest | ItemError }
  | { kind: 'batch'; items: Array<RpcRequest | ItemError> };

/** A batch item (or single body) that is not a valid request; answered with its error. */
export interface ItemError {
  invalid: GatewayError;
  id: RpcId;
}

/**
 * Parses a JSON-RPC 2.0 body (single or batch) and checks each envelope.
 * Throws a GatewayError for an unparseable body (PARSE_ERROR), a body nested deeper than
 * {@link MAX_JSON_DEPTH} (INVALID_REQUEST, refused before JSON.parse), an empty batch or a
 * batch over `maxBatch`.
 *
 * A numeric id whose exact text a JavaScript number cannot reproduce (`1e400`, a 30-digit
 * integer, `-0`, `1.0`) comes back as a {@link RawId} holding the client's text; serialise
 * the response with `serializeResponse` to echo it byte for byte.
 *
 * @example
 * parseRpcPayload('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', 100)
 * // { kind: 'single', item: { id: 1, method: 'eth_chainId', params: undefined } }
 * parseRpcPayload('{"jsonrpc":"2.0","id":1e400,"method":"eth_chainId"}', 100)
 * // { kind: 'single', item: { id: RawId { text: '1e400' }, method: 'eth_chainId', params: undefined } }
 */
export function parseRpcPayload(body: string, maxBatch: number): RpcPayload {
  // the common shape, read in one pass (the same request JSON.parse would give)
  const plain = readPlainCall(body);
  if (plain !== undefined) return { kind: 'single', item: plain };
  const scan = scanJsonEnvelope(body, MAX_JSON_DEPTH);
  if (scan.tooDeep) {
    throw new GatewayError('INVALID_REQUEST', `invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const rawIds = scan.numericIds;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new GatewayError('PARSE_ERROR', 'parse error: the body is not valid JSON');
  }
  if (Array.isArray(value)) {
    if (value.length === 0) throw new GatewayError('INVALID_REQUEST', 'invalid request: empty batch');
    if (value.length > maxBatch) {
      throw new GatewayError(
        'INVALID_REQUEST',
        `batch too large: ${value.length} requests, the limit is ${maxBatch}; split it into smaller batches`,
      );
    }
    return { kind: 'batch', items: value.map((item, i) => checkEnvelope(item, rawIds[i])) };
  }
  return { kind: 'single', item: checkEnvelope(value, rawIds[0]) };
}

function checkEnvelope(value: unknown, rawId: string | undefined): RpcRequest | ItemError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(null, 'invalid request: expected a JSON-RPC request object');
  }
  const v = value as Record<string, unknown>;
  const hasId = Object.hasOwn(v, 'id');
  let id = v.id;
  if (typeof id === 'number') {
    // Only a number whose canonical text differs from the source (1e400, 1.0, -0, > 2^53) needs its text.
    if (rawId !== undefined && String(id) !== rawId) id = new RawId(rawId);
  } else if (hasId && id !== null && typeof id !== 'string') {
    return invalid(null, 'invalid request: "id" must be a string, a number or null');
  }
  const safeId = (hasId ? id : null) as RpcId;
  if (v.jsonrpc !== '2.0') return invalid(safeId, 'invalid request: "jsonrpc" must be exactly "2.0"');
  if (typeof v.method !== 'string' || v.method.length === 0) {
    return invalid(safeId, 'invalid request: "method" must be a non-empty string');
  }
  const params = v.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return invalid(safeId, 'invalid request: "params" must be an array or an object');
  }
  return { id: hasId ? (id as RpcId) : undefined, method: v.method, params };
}

function invalid(id: RpcId, message: string): ItemError {
  return { invalid: new GatewayError('INVALID_REQUEST', message), id };
}

/** True for a parsed item that failed the envelope check. */
export function isItemError(item: RpcRequest | ItemError): item is ItemError {
  return 'invalid' in item;
}
