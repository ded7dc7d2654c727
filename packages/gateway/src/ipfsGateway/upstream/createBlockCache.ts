import { createHash } from 'node:crypto';
import type { CID } from 'multiformats/cid';
import { blockKey } from '../serve/parseRootCid.js';
import { createByteLru } from './createByteLru.js';

/** sha2-256's multihash code: the blocks the cache can check before it keeps them. */
const SHA2_256 = 0x12;

/** Small blocks the gateway read from the node, kept by content (shared by every account's requests). */
export interface BlockCache {
  /** The block's bytes when they are held (the same bytes for every CID of its multihash). */
  get(cid: CID): Uint8Array | undefined;
  /** Keeps `bytes` for `cid` when they are small enough and match its sha2-256 digest; anything else is not kept. */
  set(cid: CID, bytes: Uint8Array): void;
  /** Bytes held now. */
  readonly bytes: number;
}

/**
 * A {@link BlockCache} of at most `maxBytes`, least recently used first out. Only blocks of at
 * most `maxBlockBytes` whose multihash is sha2-256 and matches the bytes are kept (the root and
 * directory nodes a read starts from: a warm read then asks the node for its `cat` only). Blocks
 * are immutable and named by their hash, so a block kept for one account's read answers another's
 * only after that account's own access check: the cache saves a round trip, never a decision.
 *
 * @example
 * const blocks = createBlockCache({ maxBytes: 8 << 20, maxBlockBytes: 64 << 10 });
 * blocks.get(cid) ?? (await readBlockFromNode(cid));
 */
export function createBlockCache(options: { maxBytes: number; maxBlockBytes: number }): BlockCache {
  const held = createByteLru(options.maxBytes);
  return {
    get: (cid) => held.get(blockKey(cid)),
    set(cid, block) {
      if (block.byteLength > options.maxBlockBytes || block.byteLength > options.maxBytes) return;
      if (cid.multihash.code !== SHA2_256) return;
      const digest = createHash('sha256').update(block).digest();
      if (!digest.equals(cid.multihash.digest)) return;
      held.set(blockKey(cid), block);
    },
    get bytes() {
      return held.bytes;
    },
  };
}
