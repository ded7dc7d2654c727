import type { HeadTracker } from './createHeadTracker.js';
import type { BlockRef } from './ResponseCache.js';

/**
 * Whether an entry read from `block` may still be served: the block is not one a reorg replaced,
 * not above the head, and the canonical hash the tracker knows at its height is its hash.
 *
 * @example
 * if (entry.block !== undefined && !stillCanonical(tracker, entry.block)) return; // not served
 */
export function stillCanonical(tracker: HeadTracker, block: BlockRef): boolean {
  if (tracker.wasReplaced(block.hash)) return false;
  if (block.number === undefined) return true;
  const latest = tracker.latest();
  if (latest !== undefined && block.number > latest.number) return false;
  const hash = tracker.hashAt(block.number);
  return hash === undefined || hash === block.hash;
}
