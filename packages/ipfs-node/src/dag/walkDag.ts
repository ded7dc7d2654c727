import type { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';
import { blockLinks } from './blockLinks.js';

const RAW = 0x55;

/** A block met during a DAG walk. */
export interface WalkedBlock {
  cid: CID;
  /** Undefined for a raw leaf when `readLeaves` is false (its presence was checked). */
  bytes: Uint8Array | undefined;
}

/**
 * Walks a DAG depth-first in link order (pre-order), visiting each block once (by multihash),
 * reading blocks from the local store only: a missing block fails the walk. With
 * `readLeaves: false`, raw leaves are only checked for presence, not read.
 * `seen` may be shared between walks to skip already-visited sub-DAGs.
 */
export async function* walkDag(
  store: BlockStore,
  root: CID,
  options: { signal?: AbortSignal; seen?: Set<string>; readLeaves?: boolean } = {},
): AsyncGenerator<WalkedBlock> {
  const seen = options.seen ?? new Set<string>();
  const stack: CID[] = [root];
  while (stack.length > 0) {
    const cid = stack.pop()!;
    const key = multihashKey(cid);
    if (seen.has(key)) continue;
    seen.add(key);
    options.signal?.throwIfAborted();
    if (cid.code === RAW && options.readLeaves === false) {
      if (!(await store.has(cid))) throw IpfsNodeError.blockNotFound(cid.toString());
      yield { cid, bytes: undefined };
      continue;
    }
    const bytes = await store.get(cid, options.signal);
    yield { cid, bytes };
    const links = blockLinks(cid, bytes);
    for (let i = links.length - 1; i >= 0; i--) stack.push(links[i]!);
  }
}

/** A string key identifying a block's content (its multihash), whatever the CID version or codec. */
export function multihashKey(cid: CID): string {
  return Buffer.from(cid.multihash.bytes).toString('base64');
}
