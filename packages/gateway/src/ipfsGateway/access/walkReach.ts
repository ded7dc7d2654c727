import { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { readUpstream } from '../upstream/readUpstream.js';
import { collectDagJsonLinks } from '../serve/collectDagJsonLinks.js';
import { loadNode, RAW } from '../serve/loadNode.js';
import { blockKey, DAG_PB, IDENTITY } from '../serve/parseRootCid.js';

/** Blocks read at once by a walk. */
const PARALLEL = 8;

/** The blocks a walk reached, and whether it reached all of them. */
export interface Reach {
  readonly blocks: Set<string>;
  /** False when the walk stopped at its block budget or its deadline. */
  readonly complete: boolean;
}

/**
 * Every block under `roots` (their {@link blockKey}s, the roots' own included), read over the
 * node breadth-first, a few at a time: dag-pb by its links, other codecs by their DAG-JSON form
 * (`dag/get`); raw and identity blocks are counted without being read. Stops at `maxBlocks` or
 * when `signal` aborts (then `complete` is false); a block the node does not have is skipped.
 *
 * @example
 * const { blocks } = await walkReach(upstream, ['bafy…'], { maxBlocks: 100_000, signal });
 */
export async function walkReach(
  upstream: IpfsUpstream,
  roots: readonly string[],
  options: { maxBlocks: number; signal: AbortSignal },
): Promise<Reach> {
  const blocks = new Set<string>();
  const queue: CID[] = [];
  let cut = false;
  const add = (cid: CID) => {
    const key = blockKey(cid);
    if (blocks.has(key)) return;
    if (blocks.size >= options.maxBlocks) {
      cut = true;
      return;
    }
    blocks.add(key);
    if (cid.code !== RAW && cid.multihash.code !== IDENTITY) queue.push(cid);
  };
  for (const r of roots) {
    try {
      add(CID.parse(r));
    } catch {
      // a pin record that is not a CID: nothing under it
    }
  }
  const visit = async (cid: CID) => {
    try {
      if (cid.code === DAG_PB) {
        for (const link of (await loadNode(upstream, cid, options.signal)).links) add(link.Hash);
      } else {
        const json = await readUpstream(
          upstream,
          'dag/get',
          { arg: cid.toString(), 'output-codec': 'dag-json' },
          8 * 1024 * 1024,
          options.signal,
        );
        for (const link of collectDagJsonLinks(JSON.parse(json.toString('utf8')) as unknown)) add(link);
      }
    } catch {
      // a block the node lacks (or cannot decode) leads nowhere
    }
  };
  const inFlight = new Set<Promise<void>>();
  while ((queue.length > 0 || inFlight.size > 0) && !options.signal.aborted) {
    while (queue.length > 0 && inFlight.size < PARALLEL) {
      const p: Promise<void> = visit(queue.shift()!).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (inFlight.size === 0) break;
    await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return { blocks, complete: !cut && !options.signal.aborted && queue.length === 0 };
}
