import type { BlockReader, ReadBlock } from './BlockReader.js';
import { ethBlockReader } from './ethBlockReader.js';
import type { Network } from '../network/createNetwork.js';

/** A block as the tracker keeps it. */
export interface TrackedHead {
  readonly number: number;
  readonly hash: string;
}

/** What the cache knows about a network's chain: its head, its finalized block, reorgs. */
export interface HeadTracker {
  latest(): TrackedHead | undefined;
  /** The highest finalized block number (`finalized`; Starknet: `l1_accepted`), undefined before the first poll. */
  finalized(): number | undefined;
  /** The canonical hash at a recent height (the last 256 blocks). */
  hashAt(n: number): string | undefined;
  /** How many reorgs it has seen: a call that spans one must not be cached. */
  reorgs(): number;
  /** Polls now (after a write or a dev method passed through the gateway); resolves when done. */
  refresh(): Promise<void>;
  close(): void;
}

const KEEP = 256;

/**
 * Follows a network's head for the cache: every `intervalMs` (and on `refresh()`) it asks the
 * network, through `options.read` (Ethereum's by default; `starknetBlockReader` for Starknet),
 * for the `latest` and `finalized` blocks, remembers the canonical hash of the
 * last 256 heights, and detects reorgs: a known height whose hash changed, a head whose parent is
 * not the hash it knew, or a head below the last one (a revert). `onReorg` hears the hashes that
 * left the chain (their cache entries are dropped); `onHead` hears each new head.
 *
 * @example
 * const heads = createHeadTracker(network, { intervalMs: 1_000, onReorg: (gone) => …, onHead: (h) => … });
 */
export function createHeadTracker(
  network: Network,
  options: {
    intervalMs: number;
    onReorg: (replaced: string[]) => void;
    onHead: (head: TrackedHead, previous: TrackedHead | undefined) => void;
    /** How blocks are read (default: `eth_getBlockByNumber`). */
    read?: BlockReader;
  },
): HeadTracker {
  const canonical = new Map<number, string>();
  let latest: TrackedHead | undefined;
  let finalized: number | undefined;
  let polling: Promise<void> | undefined;
  let pendingWalk: number | undefined;
  let reorgs = 0;
  const reorged = (replaced: string[]) => {
    reorgs++;
    options.onReorg(replaced);
  };
  const fetchBlock = options.read ?? ethBlockReader(network);

  /** Takes a new head; returns the height below which the chain must still be checked, if any. */
  const apply = (block: ReadBlock): number | undefined => {
    const n = block.number;
    const replaced: string[] = [];
    // a revert: every height above the new head left the chain
    if (latest !== undefined && n < latest.number) {
      for (const [h, hash] of canonical) {
        if (h > n) {
          replaced.push(hash);
          canonical.delete(h);
        }
      }
    }
    const known = canonical.get(n);
    if (known !== undefined && known !== block.hash) {
      replaced.push(known);
      // and everything above it
      for (const [h, hash] of canonical) {
        if (h > n) {
          replaced.push(hash);
          canonical.delete(h);
        }
      }
    }
    const parentKnown = canonical.get(n - 1);
    let walkFrom: number | undefined;
    if (parentKnown !== undefined && block.parentHash !== undefined && parentKnown !== block.parentHash) {
      // the fork is deeper than the head: the heights below are walked back until they agree
      replaced.push(parentKnown);
      canonical.delete(n - 1);
      walkFrom = n - 2;
    } else if (parentKnown === undefined && latest !== undefined && n - 1 > latest.number) {
      // a head more than one block past the last one seen: the heights known below the gap are
      // checked against the chain (a fork that happened between two polls is found there)
      walkFrom = latest.number;
    }
    canonical.set(n, block.hash);
    if (block.parentHash !== undefined && !canonical.has(n - 1) && n > 0) canonical.set(n - 1, block.parentHash);
    for (const h of canonical.keys()) if (h < n - KEEP) canonical.delete(h);
    if (replaced.length > 0) reorged(replaced);
    const previous = latest;
    if (previous === undefined || previous.hash !== block.hash) {
      latest = { number: n, hash: block.hash };
      options.onHead(latest, previous);
    }
    return walkFrom;
  };

  /** Walks back from `from` while the known hashes differ from the chain's (at most 64 blocks). */
  const walkBack = async (from: number) => {
    const replaced: string[] = [];
    for (let h = from; h >= 0 && h > from - 64; h--) {
      const known = canonical.get(h);
      if (known === undefined) break;
      const b = await fetchBlock(h);
      if (!b || b.hash === known) break;
      replaced.push(known);
      canonical.set(h, b.hash);
    }
    if (replaced.length > 0) reorged(replaced);
  };

  const poll = () => {
    polling ??= (async () => {
      try {
        const [head, fin] = await Promise.all([fetchBlock('latest'), fetchBlock('finalized').catch(() => undefined)]);
        const walkFrom = head ? apply(head) : undefined;
        // a walk that failed (the network busy or down) is resumed at the next poll
        if (walkFrom !== undefined) pendingWalk = Math.max(pendingWalk ?? -1, walkFrom);
        if (pendingWalk !== undefined) {
          await walkBack(pendingWalk);
          pendingWalk = undefined;
        }
        if (fin) finalized = fin.number;
        // finalized can never be above the head (after a revert it may have been)
        if (finalized !== undefined && latest !== undefined && finalized > latest.number) finalized = latest.number;
      } catch {
        // the network is down: nothing new to learn; the entries keep their TTLs
      }
    })().finally(() => {
      polling = undefined;
    });
    return polling;
  };
  void poll();
  const timer = setInterval(() => void poll(), options.intervalMs);
  timer.unref();

  return {
    latest: () => latest,
    finalized: () => finalized,
    hashAt: (n) => canonical.get(n),
    reorgs: () => reorgs,
    refresh: poll,
    close() {
      clearInterval(timer);
    },
  };
}
