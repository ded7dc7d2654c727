import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { fetchBlock } from '../upstream/fetchBlock.js';
import { decodeUnixfs, type UnixfsData } from './decodeUnixfs.js';
import { DAG_PB } from './parseRootCid.js';

/** dag-pb's link type (decoded). */
export type PbLink = dagPb.PBLink;

/** One block, read and (for dag-pb) decoded. */
export interface LoadedNode {
  readonly cid: CID;
  readonly bytes: Uint8Array;
  /** dag-pb: its links, in order. */
  readonly links: readonly PbLink[];
  /** dag-pb with UnixFS data: what it is. */
  readonly unixfs: UnixfsData | undefined;
}

/** raw, the codec of raw leaves and raw blocks. */
export const RAW = 0x55;

/**
 * Reads one block from the node ({@link fetchBlock}) and decodes it when it is dag-pb: its links
 * and its UnixFS data (undefined for dag-pb that is not UnixFS). A dag-pb block that does not
 * decode is a 502 (the node holds what its CID says, so it is not the client's fault).
 *
 * @example
 * const node = await loadNode(upstream, cid, signal); // node.unixfs?.type === 'directory'
 */
export async function loadNode(upstream: IpfsUpstream, cid: CID, signal: AbortSignal): Promise<LoadedNode> {
  const bytes = await fetchBlock(upstream, cid, signal);
  if (cid.code !== DAG_PB) return { cid, bytes, links: [], unixfs: undefined };
  const pb = dagPb.decode(bytes);
  let unixfs: UnixfsData | undefined;
  if (pb.Data !== undefined) {
    try {
      unixfs = decodeUnixfs(pb.Data);
    } catch {
      unixfs = undefined;
    }
  }
  return { cid, bytes, links: pb.Links, unixfs };
}
