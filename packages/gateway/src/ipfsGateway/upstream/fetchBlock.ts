import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { IDENTITY } from '../serve/parseRootCid.js';
import { readUpstream } from './readUpstream.js';

/** The largest block read (Kubo refuses blocks over 4 MiB too). */
export const MAX_BLOCK_BYTES = 4 * 1024 * 1024;

/**
 * One block's bytes: an identity CID's are its digest (nothing is asked of the node); a block the
 * upstream's cache holds (`upstream.blocks`) is answered from it; any other comes from the node's
 * `block/get`, at most {@link MAX_BLOCK_BYTES}, and is offered to the cache. Rejects with the
 * GatewayError of `contentError` (404 missing, 504 past `signal`'s deadline, 502).
 *
 * @example
 * const bytes = await fetchBlock(upstream, cid, signal);
 */
export async function fetchBlock(upstream: IpfsUpstream, cid: CID, signal: AbortSignal): Promise<Uint8Array> {
  if (cid.multihash.code === IDENTITY) return cid.multihash.digest;
  const held = upstream.blocks?.get(cid);
  if (held !== undefined) return held;
  const bytes = await readUpstream(upstream, 'block/get', { arg: cid.toString() }, MAX_BLOCK_BYTES, signal);
  upstream.blocks?.set(cid, bytes);
  return bytes;
}
