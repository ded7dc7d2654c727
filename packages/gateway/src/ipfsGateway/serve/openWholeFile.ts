import type { UpstreamBody } from '../../ipfs/IpfsUpstream.js';
import type { ContentRequest } from './ContentRequest.js';
import { openCat } from './openCat.js';
import { RAW } from './loadNode.js';
import { DAG_PB } from './parseRootCid.js';
import type { OpenedFile } from './serveFile.js';

/**
 * A root file answered without reading its root node: one of the cached files (any read of the
 * root itself: GET, HEAD, a range; the node is not asked), or, for a plain read of a root the
 * gateway has not seen (no path, no range, not HEAD; not among the cached blocks), its whole
 * `cat` opened at once: a cold file then costs the node one request instead of a `block/get` and
 * a `cat` one after the other. Undefined when the request is not such a read, or when the node
 * does not `cat` the root (a directory, another codec: the caller reads the root node and answers
 * as it says) or does not give its length (`X-Content-Length`). Rejects only when the content's
 * deadline passed (504).
 *
 * @example
 * const opened = await openWholeFile(cr);
 * if (opened) await serveFile(cr, opened, [cr.root], undefined);
 */
export async function openWholeFile(cr: ContentRequest): Promise<OpenedFile | undefined> {
  if (cr.segments.length > 0 || cr.trailingSlash || (cr.root.code !== DAG_PB && cr.root.code !== RAW)) return undefined;
  const held = cr.files?.get(cr.root);
  if (held !== undefined) return { cid: cr.root, size: held.byteLength, stream: undefined, bytes: held };
  if (cr.head || cr.req.headers.range !== undefined || cr.upstream.blocks?.get(cr.root) !== undefined) return undefined;
  let stream: UpstreamBody;
  try {
    stream = await openCat(cr, { arg: cr.root.toString() });
  } catch (err) {
    if (cr.find.aborted) throw err;
    return undefined;
  }
  const header = stream.headers['x-content-length'];
  const size = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : Number.NaN;
  if (!Number.isSafeInteger(size)) {
    stream.destroy();
    return undefined;
  }
  return { cid: cr.root, size, stream, bytes: undefined };
}
