import { UpstreamTransportError } from './UpstreamTransportError.js';

/** What an upstream's failure means for the request. */
export type UpstreamVerdict =
  /** The client's own error (a revert, invalid params): every node would say the same; passed through. */
  | { readonly kind: 'client' }
  /** This node cannot answer now (down, overloaded, behind, pruned): another node may; counts against its health. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly retryAfterMs?: number | undefined }
  /** This node does not serve the method at all: another node may; remembered as a missing capability. */
  | { readonly kind: 'unsupported' };

/**
 * What nodes answer when they, not the request, are the problem: a node behind its peers or one
 * that pruned the state (geth, reth, erigon, nethermind, besu, pathfinder, juno wordings), and
 * providers' overload answers.
 */
const NODE_TROUBLE =
  /header not found|missing trie node|unknown block|block not found|not found at height|beyond (the )?(current )?head|historical state (is )?(not available|unavailable)|state (is )?not available|pruned|node is (still )?syncing|no suitable peers|request timed out|too many requests|rate limit|capacity exceeded|service unavailable|temporarily unavailable/i;

/** JSON-RPC codes that are about the node's load, not the request: -32005 limit exceeded, 429. */
const OVERLOAD_CODES = new Set([-32005, 429]);

/**
 * Decides what an upstream failure means: a transport failure (could not connect, reset,
 * timeout, HTTP 5xx or 429, a body that is not JSON-RPC) or one of the answers above is the
 * node's trouble, so the request may go to another node (the wordings only under the generic
 * server codes, -32000 and below: a spec-defined positive code is an answer); a JSON-RPC -32601
 * means the node lacks the method; any other JSON-RPC error is the client's and goes back as it is. `Retry-After`
 * (HTTP 429/503) is kept so a retry waits for it.
 *
 * @example
 * classifyUpstreamError({ code: -32000, message: 'header not found' }); // { kind: 'unavailable', reason: 'header not found' }
 * classifyUpstreamError({ code: 3, message: 'execution reverted' });    // { kind: 'client' }
 */
export function classifyUpstreamError(
  err: UpstreamTransportError | { readonly code: number; readonly message: string },
): UpstreamVerdict {
  if (err instanceof UpstreamTransportError) {
    return { kind: 'unavailable', reason: err.message, retryAfterMs: err.retryAfterMs };
  }
  if (err.code === -32601) return { kind: 'unsupported' };
  if (OVERLOAD_CODES.has(err.code)) return { kind: 'unavailable', reason: err.message || `error ${err.code}` };
  // a code the spec defines (Starknet's 1…100, EIP-1474's 1…) is a real answer about the request
  // (24 BLOCK_NOT_FOUND is not "this node is behind"): only the generic server codes are read
  if (err.code > 0) return { kind: 'client' };
  if (typeof err.message === 'string' && NODE_TROUBLE.test(err.message)) {
    return { kind: 'unavailable', reason: err.message };
  }
  return { kind: 'client' };
}
