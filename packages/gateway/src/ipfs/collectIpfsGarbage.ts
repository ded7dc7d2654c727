import { callUpstream } from './callUpstream.js';
import { canonicalCid } from './canonicalCid.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import type { PinStore, PinType } from './pins/PinStore.js';

/** What one collection did. */
export interface IpfsGcReport {
  /** ISO time the collection started. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** CIDs some key pins that the node had lost its pin of: pinned again before collecting. */
  readonly repinned: number;
  /** Pins on the node that no key owned at two collections in a row: removed. */
  readonly unpinned: number;
  /** Blocks the node removed (the lines of its `repo/gc` answer). */
  readonly removedBlocks: number;
}

/** Upstream answers of pin and gc listings: large repos list many CIDs. */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

/**
 * One garbage collection of the upstream's repo, driven by the gateway's pin records:
 * 1. a collection mark is taken (unpinned bytes recorded before it stop counting once it ends);
 * 2. every CID some key pins is made sure to be pinned on the node (recursively when any key pins
 *    it so): a block pinned by any key is never collected, whatever happened to the node's pins;
 * 3. with `unpinUnowned`, pins on the node that no key owns and that were already unowned at the
 *    previous collection (`suspects`: the grace covers an add whose pin the gateway is recording)
 *    are removed, checked against the records once more just before;
 * 4. the node's `repo/gc` runs (it keeps whatever its pins reach, and waits for writes in progress);
 * 5. only when all of it succeeded, the mark ends: the keys' unpinned bytes before it stop counting.
 * Throws on any failure (nothing is uncounted then). `suspects` is updated for the next run.
 *
 * @example
 * const report = await collectIpfsGarbage(upstream, pins, { unpinUnowned: true, suspects, signal });
 */
export async function collectIpfsGarbage(
  upstream: IpfsUpstream,
  pins: PinStore,
  options: { unpinUnowned: boolean; suspects: Set<string>; signal: AbortSignal },
): Promise<IpfsGcReport> {
  const started = Date.now();
  const { signal } = options;
  const opts = { maxBytes: MAX_LISTING_BYTES, signal };
  const mark = await pins.beginCollection();

  const owned = new Map<string, PinType>();
  for (const p of await pins.pinnedCids()) owned.set(p.cid, p.type);
  const onNode = new Map<string, PinType>();
  for (const type of ['direct', 'recursive'] as const) {
    const listing = expectUpstreamOk(await callUpstream(upstream, 'pin/ls', { type, stream: 'true' }, opts));
    for (const line of listing.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      const cid = canonicalCid(String((JSON.parse(line) as { Cid?: unknown }).Cid ?? ''));
      if (cid !== undefined && onNode.get(cid) !== 'recursive') onNode.set(cid, type);
    }
  }

  let repinned = 0;
  for (const [cid, type] of owned) {
    const has = onNode.get(cid);
    if (has === 'recursive' || has === type) continue;
    const query = { arg: cid, recursive: String(type === 'recursive') };
    expectUpstreamOk(await callUpstream(upstream, 'pin/add', query, opts));
    repinned++;
  }

  let unpinned = 0;
  const next = new Set<string>();
  if (options.unpinUnowned) {
    for (const cid of onNode.keys()) {
      if (owned.has(cid)) continue;
      if (!options.suspects.has(cid)) {
        next.add(cid);
        continue;
      }
      if ((await pins.owners(cid)) > 0) continue; // a key pinned it since the listing
      expectUpstreamOk(await callUpstream(upstream, 'pin/rm', { arg: cid, recursive: 'true' }, opts));
      unpinned++;
    }
  }
  options.suspects.clear();
  for (const cid of next) options.suspects.add(cid);

  const gc = expectUpstreamOk(await callUpstream(upstream, 'repo/gc', {}, opts));
  const removedBlocks = gc
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
  await pins.endCollection(mark);
  return {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    repinned,
    unpinned,
    removedBlocks,
  };
}
