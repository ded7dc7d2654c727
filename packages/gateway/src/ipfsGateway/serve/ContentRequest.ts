import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import type { FileCache } from '../upstream/createFileCache.js';
import type { BodyWriter } from './createBodyWriter.js';

/** One content request of a dedicated gateway, once it is admitted: what every answer reads. */
export interface ContentRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly upstream: IpfsUpstream;
  /** A HEAD request: the same headers, no body. */
  readonly head: boolean;
  readonly root: CID;
  /** The path below the root, decoded, one entry per segment. */
  readonly segments: readonly string[];
  /** The URL path ended with `/`. */
  readonly trailingSlash: boolean;
  readonly query: URLSearchParams;
  /** The URL path the client asked for (as sent: percent-encoded), for redirects. */
  readonly urlPath: string;
  /** The raw query (with its `?`, or empty), kept by redirects. */
  readonly rawQuery: string;
  /** `/ipfs/<cid>[/<path>]`, percent-encoded (`X-Ipfs-Path`). */
  readonly contentPath: string;
  /** Aborted when the content was not found in time (`ipfs.gateways.timeoutMs`) or the client went away. */
  readonly find: AbortSignal;
  /** Aborted when the client went away. */
  readonly client: AbortSignal;
  /** How long the node may leave a streamed answer without a byte before it is stopped. */
  readonly idleMs: number;
  readonly body: BodyWriter;
  /** Small whole files already served (warm reads answer from memory); absent: every read asks the node. */
  readonly files?: FileCache | undefined;
  /** The most entries a generated directory listing shows. */
  readonly maxListingEntries: number;
  /**
   * Where the same answer is with its `format` in the URL, when only `Accept` asked for it
   * (`Content-Location`: caches keep the formats apart).
   */
  readonly contentLocation?: string | undefined;
}

/** Headers every content answer carries: CORS for any page (content is public), and the content path. */
export function baseHeaders(cr: ContentRequest): OutgoingHttpHeaders {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers':
      'Content-Length, Content-Range, Content-Type, Content-Disposition, ETag, X-Ipfs-Path, X-Ipfs-Roots, Location',
    'x-ipfs-path': cr.contentPath,
    ...(cr.contentLocation === undefined ? {} : { 'content-location': cr.contentLocation }),
  };
}

/** `Cache-Control` of every immutable `/ipfs/` answer (path gateway spec). */
export const IMMUTABLE = 'public, max-age=29030400, immutable';

/**
 * Whether the request's `If-None-Match` names `etag` (or `*`): the answer is then 304 without a
 * body. Weak and strong forms compare alike (a cache revalidating holds either).
 *
 * @example
 * matchesIfNoneMatch('"bafy…", W/"x"', '"bafy…"') // true
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  for (const part of header.split(',')) {
    const t = part.trim();
    if (t === '*' || t.replace(/^W\//, '') === bare) return true;
  }
  return false;
}

/** Writes 304 Not Modified for `etag` (no body). */
export function writeNotModified(cr: ContentRequest, etag: string): void {
  cr.res.writeHead(304, { ...baseHeaders(cr), etag, 'cache-control': IMMUTABLE }).end();
}

/** Percent-encodes each segment of a decoded path (for headers and redirects). */
export function encodePath(segments: readonly string[]): string {
  return segments.map((s) => encodeURIComponent(s)).join('/');
}
