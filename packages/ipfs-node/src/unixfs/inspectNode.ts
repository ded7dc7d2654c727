import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';

/** What a UnixFS node is: a file (or raw block), a directory (basic or HAMT-sharded) or a symlink. */
export interface NodeInfo {
  cid: CID;
  type: 'file' | 'directory' | 'hamt' | 'symlink';
  /** File size for files, 0 otherwise. */
  size: bigint;
  /** Symlink target. */
  target?: string;
  /** Decoded node (dag-pb only). */
  node?: dagPb.PBNode;
  /** Block sizes of a chunked file's children. */
  blockSizes?: bigint[];
}

/** Reads a node's block and tells what kind of UnixFS node it is. */
export async function inspectNode(store: BlockStore, cid: CID, signal?: AbortSignal): Promise<NodeInfo> {
  const bytes = await store.get(cid, signal);
  if (cid.code === 0x55) return { cid, type: 'file', size: BigInt(bytes.byteLength) };
  if (cid.code !== dagPb.code) {
    throw new IpfsNodeError('command', `${cid} is not a UnixFS node (codec 0x${cid.code.toString(16)})`);
  }
  const node = dagPb.decode(bytes);
  if (node.Data === undefined) throw new IpfsNodeError('command', `${cid} is not a UnixFS node`);
  const fs = UnixFS.unmarshal(node.Data);
  switch (fs.type) {
    case 'directory':
      return { cid, type: 'directory', size: 0n, node };
    case 'hamt-sharded-directory':
      return { cid, type: 'hamt', size: 0n, node };
    case 'symlink':
      return { cid, type: 'symlink', size: 0n, target: new TextDecoder().decode(fs.data ?? new Uint8Array()), node };
    default:
      return { cid, type: 'file', size: fs.fileSize(), node, blockSizes: fs.blockSizes };
  }
}
