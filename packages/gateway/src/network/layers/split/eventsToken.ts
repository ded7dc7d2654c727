import { createHash } from 'node:crypto';
import { ProtocolRpcError } from '../../../errors/GatewayError.js';

/** Where a split `starknet_getEvents` walk stands between two pages. */
export interface EventsPosition {
  /** The resolved range of the walk (the first page's tags, resolved once). */
  readonly from: number;
  readonly to: number;
  /** The current sub-range: its first and last block. */
  readonly at: number;
  readonly end: number;
  /** The upstream's own token within the current sub-range, when it gave one. */
  readonly upstream?: string | undefined;
  /** The last sub-range asks up to the pre-confirmed block (the client's `to_block` tag). */
  readonly pending?: boolean | undefined;
}

/** The prefix of the gateway's own continuation tokens (an upstream's tokens pass through as they are). */
export const TOKEN_PREFIX = 'ng1.';
/** The longest token the gateway issues or reads back (an upstream's token inside included). */
export const MAX_TOKEN_LENGTH = 1024;
/** The longest upstream token the gateway carries (a longer one is not split: the walk stops). */
export const MAX_UPSTREAM_TOKEN_LENGTH = 512;

/** Starknet's 33 INVALID_CONTINUATION_TOKEN, in the spec's words. */
export function invalidContinuationToken(): ProtocolRpcError {
  return new ProtocolRpcError(33, 'The supplied continuation token is invalid or unknown');
}

/**
 * The digest a token is bound to: the filter's fields that choose events (`address`, `keys`,
 * `from_block`, `to_block`, as the client sent them), so a token is refused with another filter.
 *
 * @example
 * filterDigest({ from_block: 'latest', keys: [['0x1']], chunk_size: 10 }); // 22 base64url characters
 */
export function filterDigest(filter: Readonly<Record<string, unknown>>): string {
  const bound = [filter.address ?? null, filter.keys ?? null, filter.from_block ?? null, filter.to_block ?? null];
  return createHash('sha256').update(JSON.stringify(bound)).digest('base64url').slice(0, 22);
}

/**
 * The gateway's continuation token for a split walk: `ng1.` and base64url JSON of the position
 * and the filter's digest. It holds block heights and the upstream's own token, nothing else
 * (no key, no other caller's data); reading it back checks it (`readEventsToken`).
 *
 * @example
 * eventsToken(digest, { from: 0, to: 9999, at: 2000, end: 2999 }); // 'ng1.eyJ…'
 */
export function eventsToken(digest: string, p: EventsPosition): string {
  const body = { d: digest, f: p.from, t: p.to, a: p.at, e: p.end, u: p.upstream, x: p.pending ? 1 : undefined };
  return TOKEN_PREFIX + Buffer.from(JSON.stringify(body)).toString('base64url');
}

const isHeight = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The position in a token the gateway issued for this filter (`digest`); throws Starknet's 33
 * INVALID_CONTINUATION_TOKEN for anything else: too long, not base64url JSON, another filter's,
 * heights out of order.
 *
 * @example
 * readEventsToken(token, filterDigest(filter)); // { from, to, at, end, upstream }
 */
export function readEventsToken(token: string, digest: string): EventsPosition {
  if (token.length > MAX_TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) throw invalidContinuationToken();
  const text = token.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalidContinuationToken();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidContinuationToken();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidContinuationToken();
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b);
  if (keys.some((k) => !['d', 'f', 't', 'a', 'e', 'u', 'x'].includes(k))) throw invalidContinuationToken();
  const { d, f, t, a, e, u, x } = b;
  if (d !== digest || !isHeight(f) || !isHeight(t) || !isHeight(a) || !isHeight(e)) throw invalidContinuationToken();
  if (!(f <= a && a <= e && e <= t)) throw invalidContinuationToken();
  if (u !== undefined && (typeof u !== 'string' || u.length === 0 || u.length > MAX_UPSTREAM_TOKEN_LENGTH))
    throw invalidContinuationToken();
  if (x !== undefined && x !== 1) throw invalidContinuationToken();
  return { from: f, to: t, at: a, end: e, upstream: u, pending: x === 1 };
}
