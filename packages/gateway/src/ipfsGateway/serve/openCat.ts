import type { UpstreamBody } from '../../ipfs/IpfsUpstream.js';
import { openUpstreamStream } from '../upstream/openUpstreamStream.js';
import type { ContentRequest } from './ContentRequest.js';

/**
 * The node's `cat` of a file (`params`: `arg`, and `offset`/`length` for a range), over the
 * connections that read without a copy when there are some and one is free, else the node's
 * agent; found within `cr.find`, cut when the client goes away.
 *
 * @example
 * const body = await openCat(cr, { arg: cid.toString() });
 */
export function openCat(cr: ContentRequest, params: Record<string, string>): Promise<UpstreamBody> {
  const streams = cr.upstream.streams;
  return streams !== undefined && !streams.full
    ? streams.open('cat', params, cr.find, cr.client)
    : openUpstreamStream(cr.upstream, 'cat', params, cr.find, cr.client);
}
