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
  | { readonly kind: 'unsupported' }
  /**
   * A block-range query (`eth_getLogs`, `starknet_getEvents`) this node refuses as too wide or
   * too dense: another node may take it, a narrower range will do (the split layer bisects).
   * Not a sign of ill health. `what` says which limit it met (a block span, or a result count);
   * `limit` is the number the node named, `retry` the range it suggested (Alchemy, Infura, reth).
   */
  | RangeRefusal;

/** A node's answer that a block-range query is too wide (`blocks`) or returns too much (`results`). */
export interface RangeRefusal {
  readonly kind: 'range';
  readonly reason: string;
  readonly what: 'blocks' | 'results';
  readonly limit?: number | undefined;
  readonly retry?: { readonly from: number; readonly to: number } | undefined;
}

/** What the network knows about heads when it classifies an answer (all optional). */
export interface ClassifyContext {
  /** The block the call names (`requestedBlock`). */
  readonly requested?: BlockRef | undefined;
  /** The answering upstream's head, as last seen. */
  readonly head?: number | undefined;
  /** The best head among the network's upstreams (its head tracker). */
  readonly bestHead?: number | undefined;
  /** The call is a block-range query (`eth_getLogs`, `starknet_getEvents`): range refusals are read. */
  readonly ranged?: boolean | undefined;
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

/** A number as nodes write them in messages: `10000`, `10,000`, `10_000`, `2K`, `1k`. */
const count = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const m = /^([\d,_]+)\s*([kK])?$/.exec(text.trim());
  if (m === null) return undefined;
  const n = Number(m[1]!.replace(/[,_]/g, '')) * (m[2] === undefined ? 1 : 1000);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** A block number as a message writes it: hex (`0x1a2b`) or decimal. */
const blockOf = (text: string): number => (text.startsWith('0x') ? Number.parseInt(text, 16) : Number(text));

/** `[0x1, 0x2]` or `A-B` in a message: the range the node suggests. */
const suggested = (m: RegExpExecArray, at: number) => {
  const from = m[at];
  const to = m[at + 1];
  if (from === undefined || to === undefined) return undefined;
  const range = { from: blockOf(from), to: blockOf(to) };
  return Number.isSafeInteger(range.from) && Number.isSafeInteger(range.to) && range.from <= range.to
    ? range
    : undefined;
};

/**
 * How nodes and providers refuse a block-range query, by who says it: the wording (matched
 * case-insensitively), which limit it is, and where the number or the suggested range is.
 * Read only for range queries (`ClassifyContext.ranged`), before the overload codes (Infura's
 * result cap is a -32005).
 */
const RANGE_REFUSALS: readonly {
  readonly who: string;
  readonly pattern: RegExp;
  readonly what: 'blocks' | 'results';
  /** The group holding the limit (or, when that one is empty, `limitOr`). */
  readonly limitAt?: number;
  readonly limitOr?: number;
  /** The group holding the suggested range's first block (the last one follows). */
  readonly retryAt?: number;
}[] = [
  // "query returned more than 10000 results. Try with this block range [0x1, 0x2]." (data { from, to })
  {
    who: 'Infura',
    pattern: /query returned more than ([\d,]+) results(?:.*?\[(0x[0-9a-f]+), (0x[0-9a-f]+)\])?/i,
    what: 'results',
    limitAt: 1,
    retryAt: 2,
  },
  // "range 1000000 exceeds limit of 10000"
  { who: 'Infura', pattern: /range \d+ exceeds limit of ([\d,]+)/i, what: 'blocks', limitAt: 1 },
  // "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range … this block range should work: [0x1, 0x2]"
  {
    who: 'Alchemy',
    pattern: /log response size exceeded(?:.*?should work: \[(0x[0-9a-f]+), (0x[0-9a-f]+)\])?/i,
    what: 'results',
    retryAt: 1,
  },
  // "Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range"
  {
    who: 'Alchemy',
    pattern: /eth_getLogs requests with up to an? ([\d,]+\s*[kK]?) block range/i,
    what: 'blocks',
    limitAt: 1,
  },
  // reth: "query exceeds max block range 100000", "query exceeds max results 20000, retry with the range 23879634-23879696"
  { who: 'reth', pattern: /query exceeds max block range ([\d,]+)/i, what: 'blocks', limitAt: 1 },
  {
    who: 'reth',
    pattern: /query exceeds max results ([\d,]+)(?:, retry with the range (\d+)-(\d+))?/i,
    what: 'results',
    limitAt: 1,
    retryAt: 2,
  },
  // geth and its forks (BSC, publicnode): "exceed maximum block range: 5000"
  { who: 'geth', pattern: /exceeds? maximum block range:? ([\d,]+)/i, what: 'blocks', limitAt: 1 },
  // Erigon: "query block range exceeds server limit, narrow your filter: 1000", "query returns too many logs, narrow your filter: 20000"
  { who: 'Erigon', pattern: /block range exceeds server limit[^\d]*([\d,]+)?/i, what: 'blocks', limitAt: 1 },
  { who: 'Erigon', pattern: /too many logs/i, what: 'results' },
  // cdk-erigon: "block range too large, max range: 1000"
  { who: 'Erigon', pattern: /block range too large(?:, max range:? ([\d,]+))?/i, what: 'blocks', limitAt: 1 },
  // QuickNode: "eth_getLogs is limited to a 10,000 range"; BlockPI: "eth_getLogs is limited to 1024 block range"
  {
    who: 'QuickNode, BlockPI',
    pattern: /eth_getLogs (?:and eth_newFilter )?(?:is|are) limited to an? ?([\d,]+\s*[kK]?) ?(?:blocks? )?range/i,
    what: 'blocks',
    limitAt: 1,
  },
  // Ankr: "block range is too wide" (sometimes "(maximum 1024)")
  { who: 'Ankr', pattern: /block range is too wide(?: \(maximum ([\d,]+)\))?/i, what: 'blocks', limitAt: 1 },
  // Avalanche, Flare: "requested too many blocks from 0 to 4095, maximum is set to 2048"
  {
    who: 'Avalanche',
    pattern: /too many blocks from \d+ to \d+, maximum is set to ([\d,]+)/i,
    what: 'blocks',
    limitAt: 1,
  },
  // dRPC: "ranges over 10000 blocks are not supported on freetier"
  { who: 'dRPC', pattern: /ranges over ([\d,]+) blocks are not supported/i, what: 'blocks', limitAt: 1 },
  // Cronos, Kava: "maximum [from, to] blocks distance: 10000"
  { who: 'Cosmos EVM', pattern: /\[from, to\] blocks distance:? ([\d,]+)/i, what: 'blocks', limitAt: 1 },
  // "block range is larger than max block range, block range = 5120, max block range = 5000", "Requested block range … greater than the limit of 1000 blocks"
  {
    who: 'others',
    pattern:
      /block range (?:is (?:larger|bigger) than max(?:imum)? block range(?:.*?max block range = ([\d,]+))?|.*?greater than the limit of ([\d,]+))/i,
    what: 'blocks',
    limitAt: 1,
    limitOr: 2,
  },
  // generic result caps: "too many results", "response size exceeded", "response is too big"
  { who: 'others', pattern: /too many results|response (?:size )?(?:exceed|is too (?:big|large))/i, what: 'results' },
];

/** The refusal of a range query in `message` (and Infura's `data: { from, to }`), if it is one. */
function rangeRefusal(message: string, data: unknown): RangeRefusal | undefined {
  for (const r of RANGE_REFUSALS) {
    const m = r.pattern.exec(message);
    if (m === null) continue;
    let retry = r.retryAt === undefined ? undefined : suggested(m, r.retryAt);
    if (retry === undefined && typeof data === 'object' && data !== null) {
      const d = data as { from?: unknown; to?: unknown };
      if (typeof d.from === 'string' && typeof d.to === 'string' && /^0x[0-9a-f]+$/i.test(d.from + d.to.slice(2))) {
        const from = Number.parseInt(d.from, 16);
        const to = Number.parseInt(d.to, 16);
        if (from <= to) retry = { from, to };
      }
    }
    const at = r.limitAt === undefined ? undefined : m[r.limitAt] === undefined ? r.limitOr : r.limitAt;
    const limit = at === undefined ? undefined : count(m[at]);
    return { kind: 'range', reason: `${message} (${r.who})`, what: r.what, limit, retry };
  }
  return undefined;
}

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
 *
 * For a block-range query (`context.ranged`: `eth_getLogs`, `starknet_getEvents`), the refusals
 * of a range too wide or too dense come first, in the wordings of geth, reth, Erigon, Alchemy,
 * Infura, QuickNode, Ankr, BlockPI and others (`RANGE_REFUSALS`): `range`, with the limit the
 * node named and the range it suggested when it did.
 * `Retry-After` (HTTP 429/503) is kept so a retry waits for it.
 *
 * @example
 * const ctx = { requested: { kind: 'number', number: 120 }, head: 100, bestHead: 130 };
 * classifyUpstreamError({ code: -32000, message: 'header not found' }, ctx); // { kind: 'unavailable', … } (this node lags)
 * classifyUpstreamError({ code: -32000, message: 'header not found' }, { ...ctx, requested: { kind: 'number', number: 1e9 } }); // { kind: 'client' }
 * classifyUpstreamError({ code: 3, message: 'execution reverted' });    // { kind: 'client' }
 * classifyUpstreamError({ code: -32602, message: 'query exceeds max block range 2000' }, { ranged: true });
 * // { kind: 'range', what: 'blocks', limit: 2000, … }
 */
export function classifyUpstreamError(
  err: UpstreamTransportError | { readonly code: number; readonly message: string; readonly data?: unknown },
  context: ClassifyContext = {},
): UpstreamVerdict {
  if (err instanceof UpstreamTransportError) {
    return { kind: 'unavailable', reason: err.message, retryAfterMs: err.retryAfterMs };
  }
  if (err.code === -32601) return { kind: 'unsupported' };
  const message = typeof err.message === 'string' ? err.message : '';
  if (context.ranged) {
    // QuickNode's own code for a range over its limit; the other wordings under any code
    // (Infura's result cap is a -32005, dRPC's a 35)
    const refused = rangeRefusal(message, err.data);
    if (refused !== undefined) return refused;
    if (err.code === -32614) return { kind: 'range', reason: `${message} (QuickNode)`, what: 'blocks' };
  }
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
