import type { BlockRef } from './requestedBlock.js';
import { UpstreamTransportError } from './UpstreamTransportError.js';

/** What an upstream's failure means for the request. */
export type UpstreamVerdict =
  /** The client's own error (a revert, invalid params, a block beyond every head): passed through. */
  | { readonly kind: 'client' }
  /** This node cannot answer now (down, overloaded, behind the others): another node may; counts against its health. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly retryAfterMs?: number | undefined }
  /**
   * This node does not hold what was asked (pruned state, a block it should have but says it
   * has not): another node may, but it is not a sign of ill health (no breaker, no retry round);
   * when every node says so, the last answer goes to the client.
   */
  | { readonly kind: 'missing'; readonly reason: string }
  /** This node does not serve the method at all: another node may; remembered as a missing capability. */
  | { readonly kind: 'unsupported' };

/** What the network knows about heads when it classifies an answer (all optional). */
export interface ClassifyContext {
  /** The block the call names (`requestedBlock`). */
  readonly requested?: BlockRef | undefined;
  /** The answering upstream's head, as last seen. */
  readonly head?: number | undefined;
  /** The best head among the network's upstreams (its head tracker). */
  readonly bestHead?: number | undefined;
}

/** A node's answer that it has no such block (geth, erigon, reth, nethermind, besu wordings). */
const NO_SUCH_BLOCK =
  /header not found|unknown block|block not found|not found at height|beyond (the )?(current )?head/i;

/** A node's answer that it no longer (or never) held the state asked for: pruned, not an archive. */
const NO_SUCH_STATE =
  /missing trie node|historical state (is )?(not available|unavailable)|state (is )?not available|pruned|state .*not found/i;

/** What nodes and providers answer when they, not the request, are the problem now. */
const NODE_TROUBLE =
  /node is (still )?syncing|no suitable peers|request timed out|too many requests|rate limit|capacity exceeded|service unavailable|temporarily unavailable/i;

/** JSON-RPC codes that are about the node's load, not the request: -32005 limit exceeded, 429. */
const OVERLOAD_CODES = new Set([-32005, 429]);

/**
 * Decides what an upstream failure means. A transport failure (could not connect, reset,
 * timeout, HTTP 5xx or 429, a body that is not JSON-RPC), -32005/429, or an overload or syncing
 * wording is the node's trouble: the request may go to another node. A JSON-RPC -32601 means
 * the node lacks the method. Wordings are read only under the generic server codes (-32000 and
 * below): a spec-defined positive code is an answer about the request.
 *
 * "No such block" answers (`header not found`, `unknown block`, …) depend on the heads
 * (`context`): for a height at or below the network's best head while this node is below that
 * height, the node lags (`unavailable`: fail over, counted against it); for a height beyond the
 * best head, every node would say the same, so it is the client's answer and never counts
 * against a node (nor is it asked of the others); a tag, a hash or no block is the node's
 * trouble only when the node is behind the best head, and otherwise `missing` (tried elsewhere, not held against it). "No such state" answers (`missing trie node`, pruned history) are `missing`:
 * another node (an archive) may have it, but a node that pruned is not failing, so no breaker
 * opens on them, even when every node says so. Any other JSON-RPC error is the client's.
 * `Retry-After` (HTTP 429/503) is kept so a retry waits for it.
 *
 * @example
 * const ctx = { requested: { kind: 'number', number: 120 }, head: 100, bestHead: 130 };
 * classifyUpstreamError({ code: -32000, message: 'header not found' }, ctx); // { kind: 'unavailable', … } (this node lags)
 * classifyUpstreamError({ code: -32000, message: 'header not found' }, { ...ctx, requested: { kind: 'number', number: 1e9 } }); // { kind: 'client' }
 * classifyUpstreamError({ code: 3, message: 'execution reverted' });    // { kind: 'client' }
 */
export function classifyUpstreamError(
  err: UpstreamTransportError | { readonly code: number; readonly message: string },
  context: ClassifyContext = {},
): UpstreamVerdict {
  if (err instanceof UpstreamTransportError) {
    return { kind: 'unavailable', reason: err.message, retryAfterMs: err.retryAfterMs };
  }
  if (err.code === -32601) return { kind: 'unsupported' };
  const message = typeof err.message === 'string' ? err.message : '';
  if (OVERLOAD_CODES.has(err.code)) return { kind: 'unavailable', reason: message || `error ${err.code}` };
  // a code the spec defines (Starknet's 1…100, EIP-1474's 1…) is a real answer about the request
  // (24 BLOCK_NOT_FOUND is not "this node is behind"): only the generic server codes are read
  if (err.code > 0) return { kind: 'client' };
  if (NODE_TROUBLE.test(message)) return { kind: 'unavailable', reason: message };
  if (NO_SUCH_STATE.test(message)) return { kind: 'missing', reason: message };
  if (NO_SUCH_BLOCK.test(message)) return noSuchBlock(message, context);
  return { kind: 'client' };
}

function noSuchBlock(reason: string, { requested, head, bestHead }: ClassifyContext): UpstreamVerdict {
  if (requested?.kind === 'number') {
    // beyond every head the network knows: the client asked for a block nobody has yet
    if (bestHead === undefined || requested.number > bestHead) return { kind: 'client' };
    // this node is below the height another node has: it lags
    if (head === undefined || head < requested.number) return { kind: 'unavailable', reason: `${reason} (behind)` };
    // a block below its own head it says it has not: another node may answer; not held against it
    return { kind: 'missing', reason };
  }
  if (head !== undefined && bestHead !== undefined && head < bestHead) {
    return { kind: 'unavailable', reason: `${reason} (behind)` };
  }
  // at the best head (or heads unknown): another node may have it (a block just announced), but
  // it is not held against this one; when every node says so, it is the answer
  return { kind: 'missing', reason };
}
