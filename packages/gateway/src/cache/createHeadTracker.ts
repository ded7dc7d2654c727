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
  /** Whether this hash left the chain in a reorg the tracker saw (the last 4,096 such hashes). */
  wasReplaced(hash: string): boolean;
  /** How many reorgs it has seen: a call that spans one must not be cached. */
  reorgs(): number;
  /**
   * Reads the chain now (after a write or a dev method passed through the gateway); resolves
   * when a read that started after this call is done.
   */
  refresh(): Promise<void>;
  close(): void;
}

/** What a head source tells the tracker. */
export interface HeadListener {
  /** A new head, as the upstream announced it. */
  head(block: ReadBlock): void;
  /** The upstream says every block from this height on was replaced (Starknet's reorg notification). */
  replacedFrom(height: number): void;
  /** The source lost heads (it reconnected): the tracker reads the chain again. */
  resync(): void;
}

/** Announces heads as they come (see `createHeadTap.ts`); returns how to stop. */
export type HeadWatch = (listener: HeadListener) => { close(): void };

const KEEP = 256;
const REPLACED = 4_096;

/**
 * Follows a network's head for the cache. Heads come from `options.watch` as the upstream
 * announces them (the newHeads subscription the WebSocket hub holds, see `createHeadTap.ts`) and
 * are applied at once; every `intervalMs` (and on `refresh()`) it also reads, through
 * `options.read` (Ethereum's by default; `starknetBlockReader` for Starknet), the `latest` and
 * `finalized` blocks: the fallback when there is no WebSocket, and how a revert to a lower head
 * that announces no new block (`evm_revert`, `anvil_rollback`) is seen. It remembers the
 * canonical hash of the last 256 heights and detects reorgs: a known height whose hash changed,
 * a head whose parent is not the hash it knew (walked back up to 64 blocks), a head below the
 * last one (a revert), a head that jumped past a gap (the heights below it are checked).
 * `onReorg` hears the hashes that left the chain (their cache entries are dropped, and
 * `wasReplaced` answers for them); `onHead` hears each new head. A poll that was in flight
 * while a head was announced does not apply its (older) head.
 *
 * @example
 * const heads = createHeadTracker(network, { intervalMs: 1_000, watch: tap.watch('mainnet', 'eth'), onReorg: (gone) => …, onHead: (h) => … });
 */
export function createHeadTracker(
  network: Network,
  options: {
    intervalMs: number;
    onReorg: (replaced: string[]) => void;
    onHead: (head: TrackedHead, previous: TrackedHead | undefined) => void;
    /** How blocks are read (default: `eth_getBlockByNumber`). */
    read?: BlockReader;
    /** Where heads are announced as they come (default: none, polling only). */
    watch?: HeadWatch | undefined;
  },
): HeadTracker {
  const canonical = new Map<number, string>();
  const replacedHashes = new Set<string>();
  let latest: TrackedHead | undefined;
  let finalized: number | undefined;
  let polling: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let pendingWalk: number | undefined;
  let reorgs = 0;
  let announced = 0;
  let closed = false;
  const reorged = (replaced: string[]) => {
    reorgs++;
    for (const hash of replaced) {
      replacedHashes.add(hash);
      if (replacedHashes.size > REPLACED) replacedHashes.delete(replacedHashes.values().next().value!);
    }
    options.onReorg(replaced);
  };
  const fetchBlock = options.read ?? ethBlockReader(network);

  /** Every known height above `n` left the chain; their hashes are added to `replaced`. */
  const dropAbove = (n: number, replaced: string[]) => {
    for (const [h, hash] of canonical) {
      if (h > n) {
        replaced.push(hash);
        canonical.delete(h);
      }
    }
  };

  /** Takes a new head; returns the height below which the chain must still be checked, if any. */
  const apply = (block: ReadBlock): number | undefined => {
    const n = block.number;
    const replaced: string[] = [];
    // a revert: every height above the new head left the chain
    if (latest !== undefined && n < latest.number) dropAbove(n, replaced);
    const known = canonical.get(n);
    if (known !== undefined && known !== block.hash) {
      replaced.push(known);
      dropAbove(n, replaced);
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
    // finalized can never be above the head (after a revert it may have been)
    if (finalized !== undefined && finalized > n) finalized = n;
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

  const poll = (): Promise<void> => {
    polling ??= (async () => {
      const seen = announced;
      try {
        const [head, fin] = await Promise.all([fetchBlock('latest'), fetchBlock('finalized').catch(() => undefined)]);
        // a head announced while this read was on its way is newer than what it read
        const walkFrom = head && announced === seen ? apply(head) : undefined;
        // a walk that failed (the network busy or down) is resumed at the next poll
        if (walkFrom !== undefined) pendingWalk = Math.max(pendingWalk ?? -1, walkFrom);
        if (pendingWalk !== undefined) {
          await walkBack(pendingWalk);
          pendingWalk = undefined;
        }
        if (fin) finalized = fin.number;
        if (finalized !== undefined && latest !== undefined && finalized > latest.number) finalized = latest.number;
      } catch {
        // the network is down: nothing new to learn; the entries keep their TTLs
      }
    })().finally(() => {
      polling = undefined;
    });
    return polling;
  };
  /** A poll that starts after this call (the one in flight may have read the chain before it). */
  const refresh = (): Promise<void> => {
    if (polling === undefined) return poll();
    next ??= polling.then(() => {
      next = undefined;
      return poll();
    });
    return next;
  };

  const source = options.watch?.({
    head(block) {
      if (closed) return;
      announced++;
      const walkFrom = apply(block);
      if (walkFrom !== undefined) {
        pendingWalk = Math.max(pendingWalk ?? -1, walkFrom);
        void refresh();
      }
    },
    replacedFrom(height) {
      if (closed) return;
      announced++;
      const replaced: string[] = [];
      dropAbove(height - 1, replaced);
      if (latest !== undefined && latest.number >= height) {
        const below = canonical.get(height - 1);
        latest = below === undefined ? undefined : { number: height - 1, hash: below };
      }
      if (replaced.length > 0) reorged(replaced);
      void refresh();
    },
    resync() {
      if (!closed) void refresh();
    },
  });
  void poll();
  const timer = setInterval(() => void poll(), options.intervalMs);
  timer.unref();

  return {
    latest: () => latest,
    finalized: () => finalized,
    hashAt: (n) => canonical.get(n),
    wasReplaced: (hash) => replacedHashes.has(hash),
    reorgs: () => reorgs,
    refresh,
    close() {
      closed = true;
      clearInterval(timer);
      source?.close();
    },
  };
}
