import { CID } from 'multiformats/cid';
import type { Logger } from '../../log/createLogger.js';
import { callUpstream } from '../callUpstream.js';
import type { UploadLedger } from '../createUploadLedger.js';
import { dagSize } from '../dagSize.js';
import { expectUpstreamOk } from '../expectUpstreamOk.js';
import { IpfsCommandError } from '../IpfsCommandError.js';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import type { PinStore } from '../pins/PinStore.js';
import { storedLimitMessage } from '../storedLimitMessage.js';
import type { CollectionGate } from './createCollectionGate.js';
import { DEFAULT_SHARDING_THRESHOLD } from './directoryEntries.js';
import { mfsError } from './mfsError.js';
import type { MfsRootStore } from './MfsRootStore.js';
import { EMPTY_DIRECTORY_CID, MfsSession } from './MfsSession.js';

/** What the MFS of every key is built on. */
export interface MfsDeps {
  readonly upstream: IpfsUpstream;
  readonly roots: MfsRootStore;
  /** The pin store seen with the MFS roots ({@link withMfsRoots}): stored bytes and owners include them. */
  readonly pins: PinStore;
  /** Uploads in progress: what the key's other uploads hold counts in its quota check. */
  readonly uploads: UploadLedger;
  readonly maxStoredBytesPerKey: number;
  readonly gate: CollectionGate;
  /** Kubo's `Internal.UnixFSShardingSizeThreshold` (default 256 KiB). */
  readonly shardingThresholdBytes?: number;
  readonly log?: Logger | undefined;
}

/** A key's MFS root as a change starts from it. */
export interface MfsRoot {
  readonly root: CID;
  readonly size: number;
  /** 0 while the key never changed its MFS. */
  readonly version: number;
}

/**
 * One change of a key's MFS: from the root it is given, the new root and the command's answer.
 * It may run again on a newer root (another gateway instance changed the key's MFS first), in
 * the same session: what it stored or read the first time is still there.
 */
export type MfsChange<T> = (session: MfsSession, root: CID) => Promise<{ root: CID; result: T }>;

/** Every key's MFS over one upstream. */
export interface Mfs {
  /** The directory size estimate past which a directory is HAMT-sharded. */
  readonly threshold: number;
  /** The key's root now (the empty directory while it never changed it). */
  current(key: string): Promise<MfsRoot>;
  /** A session for reading. */
  session(signal?: AbortSignal): MfsSession;
  /**
   * Runs `change` for `key` and makes its result the key's root: one change of a key at a time
   * in this process, a compare-and-set on the stored root across processes (a lost race runs the
   * change again on the newer root after a short jittered pause, at most 10 times). See {@link createMfs}.
   */
  change<T>(key: string, change: MfsChange<T>, options?: MfsChangeOptions): Promise<T>;
}

/** Options of {@link Mfs.change}. */
export interface MfsChangeOptions {
  readonly signal?: AbortSignal | undefined;
  /** Bytes of this change's own upload still counted in the upload ledger (not counted twice). */
  readonly ownPendingBytes?: (() => number) | undefined;
}

/** Compare-and-sets a change may lose to other instances before it gives up. */
const ATTEMPTS = 10;
/** Options of a small upstream call (its answer at most 1 MiB), with the change's signal. */
const small = (signal?: AbortSignal) => (signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 });

/**
 * Each key's MFS, kept by the gateway over the upstream's block API (so it works in front of any
 * Kubo-compatible node: a real Kubo has one MFS per node, the gateway gives each key its own).
 * A key's root CID is a row of {@link MfsRootStore}; a change:
 * 1. runs under the key's in-process lock and the collection gate (no `repo/gc` of this process
 *    between storing blocks and pinning them);
 * 2. stores the new blocks the new root reaches (unpinned), then pins the new root on the node
 *    (`pin/update` from the old one, else `pin/add`);
 * 3. measures the new tree (`dag/stat`: each stored block once) and refuses with 413 a change that
 *    grows the tree past the key's quota (its pins, unpinned bytes and other uploads count too);
 * 4. compare-and-sets the stored root; a lost race unpins the new root and starts over;
 * 5. unpins the old root on the node when no key owns it any more (pins or MFS roots), and counts
 *    what the change left behind (replaced blocks) as the key's unpinned bytes until collected.
 * A change that fails after storing blocks counts them as unpinned bytes too.
 *
 * @example
 * const mfs = createMfs({ upstream, roots, pins, uploads, maxStoredBytesPerKey, gate });
 * await mfs.change(key, async (session, root) => ({ root: await mkdir(session, root), result: undefined }));
 */
export function createMfs(deps: MfsDeps): Mfs {
  const { upstream, roots, pins } = deps;
  const threshold = deps.shardingThresholdBytes ?? DEFAULT_SHARDING_THRESHOLD;
  const locks = new Map<string, Promise<unknown>>();

  const current = async (key: string): Promise<MfsRoot> => {
    const row = await roots.get(key);
    if (row === undefined) return { root: EMPTY_DIRECTORY_CID, size: 0, version: 0 };
    return { root: CID.parse(row.root), size: row.size, version: row.version };
  };

  const withKeyLock = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const before = locks.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    void tail.then(() => {
      if (locks.get(key) === tail) locks.delete(key);
    });
    return run;
  };

  /** Unpins `cid` on the node unless some key still owns it (a pin or an MFS root). */
  const releaseOnNode = async (cid: CID, signal?: AbortSignal) => {
    if ((await pins.owners(cid.toString())) > 0) return;
    const answer = await callUpstream(upstream, 'pin/rm', { arg: cid.toString(), recursive: 'true' }, small(signal));
    if (answer.status !== 200 && !/not pinned/.test(answer.body.toString('utf8'))) {
      deps.log?.warn('ipfs: could not unpin a replaced MFS root', { cid: cid.toString(), status: answer.status });
    }
  };

  const pinOnNode = async (from: MfsRoot, to: CID, signal?: AbortSignal) => {
    if (from.version > 0) {
      const query = new URLSearchParams([
        ['arg', from.root.toString()],
        ['arg', to.toString()],
        ['unpin', 'false'],
      ]);
      const answer = await callUpstream(upstream, 'pin/update', query, small(signal));
      if (answer.status === 200 && answer.streamError === undefined) return;
    }
    expectUpstreamOk(await callUpstream(upstream, 'pin/add', { arg: to.toString(), recursive: 'true' }, small(signal)));
  };

  const attempt = async <T>(
    key: string,
    session: MfsSession,
    change: MfsChange<T>,
    options: MfsChangeOptions,
  ): Promise<{ done: true; result: T } | { done: false }> => {
    const signal = options.signal;
    const from = await current(key);
    const { root: next, result } = await change(session, from.root);
    if (next.equals(from.root)) return { done: true, result };
    await session.storeReachable(next);
    await pinOnNode(from, next, signal);
    let stored = false;
    try {
      const size = await dagSize(upstream, next.toString(), 'recursive', signal);
      if (size > from.size) {
        const limit = deps.maxStoredBytesPerKey;
        const others =
          (await pins.storedBytes(key)) -
          from.size +
          Math.max(0, deps.uploads.pending(key) - (options.ownPendingBytes?.() ?? 0));
        if (others + size > limit) {
          throw new IpfsCommandError(413, storedLimitMessage(others + from.size, limit, size - from.size), 1);
        }
      }
      stored = await roots.swap(key, from.version, next.toString(), size);
      if (!stored) return { done: false };
      // the old tree's blocks that the new one no longer reaches stay on the node until collected
      const leftBehind = from.size + session.storedBytes - size;
      session.storedBytes = 0;
      if (leftBehind > 0) await pins.addUnpinned(key, leftBehind);
      if (from.version > 0) await releaseOnNode(from.root, signal);
      return { done: true, result };
    } finally {
      if (!stored) await releaseOnNode(next, signal).catch(() => undefined);
    }
  };

  return {
    threshold,
    current,
    session: (signal) => new MfsSession(upstream, signal),
    change(key, change, options = {}) {
      return withKeyLock(key, () =>
        deps.gate.shared(async () => {
          const session = new MfsSession(upstream, options.signal);
          try {
            for (let i = 0; i < ATTEMPTS; i++) {
              const outcome = await attempt(key, session, change, options);
              if (outcome.done) return outcome.result;
              // another instance changed the key's MFS first: back off a little (jittered), then again
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (i + 1)));
            }
            throw mfsError('the MFS root kept changing while this change was made: try again');
          } finally {
            // blocks stored by a change that did not land stay on the node until collected
            if (session.storedBytes > 0) {
              await pins.addUnpinned(key, session.storedBytes).catch((err: unknown) =>
                deps.log?.error('ipfs: could not record unpinned bytes', {
                  key,
                  bytes: session.storedBytes,
                  error: (err as Error).message,
                }),
              );
            }
          }
        }),
      );
    },
  };
}
