import { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';
import { resolvePath } from './resolvePath.js';

/** Resolves a command argument that names one block: a CID or an IPFS path to it. */
export async function parseCid(store: BlockStore, arg: string, signal?: AbortSignal): Promise<CID> {
  if (!arg.includes('/')) {
    try {
      return CID.parse(arg);
    } catch {
      throw new IpfsNodeError('command', `invalid path "${arg}": invalid cid`);
    }
  }
  const resolved = await resolvePath(store, arg, signal);
  if (resolved.remainder.length > 0) {
    throw new IpfsNodeError('command', `path ${arg} does not end at a block`);
  }
  return resolved.cid;
}
