import type { CID } from 'multiformats/cid';
import { multihashKey, walkDag } from '../dag/walkDag.js';
import type { Repo } from '../repo/Repo.js';

/**
 * Every block reachable from a recursive pin, by multihash key, with the pin root it was reached
 * from. Roots themselves are included. Fails if a pinned DAG has a missing block.
 */
export async function indirectPins(repo: Repo, signal?: AbortSignal): Promise<Map<string, { cid: CID; root: CID }>> {
  const reached = new Map<string, { cid: CID; root: CID }>();
  const seen = new Set<string>();
  for await (const pin of repo.pins.all()) {
    if (pin.type !== 'recursive') continue;
    for await (const block of walkDag(
      repo.blocks,
      pin.cid,
      signal === undefined ? { seen, readLeaves: false } : { seen, signal, readLeaves: false },
    )) {
      reached.set(multihashKey(block.cid), { cid: block.cid, root: pin.cid });
    }
  }
  return reached;
}
