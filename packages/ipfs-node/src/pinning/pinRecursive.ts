import type { CID } from 'multiformats/cid';
import { walkDag } from '../dag/walkDag.js';
import { IpfsNodeError } from '../errors.js';
import type { Repo } from '../repo/Repo.js';

/**
 * Pins `cid` (recursively unless `recursive` is false) after checking the whole DAG is stored
 * locally (the node is offline: a missing block fails the pin). Call under `repo.gcLock.shared`.
 */
export async function pinRecursive(
  repo: Repo,
  cid: CID,
  options: { recursive?: boolean; name?: string; verify?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  const recursive = options.recursive ?? true;
  if (options.verify ?? true) {
    if (recursive) {
      for await (const _ of walkDag(repo.blocks, cid, {
        readLeaves: false,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      })) {
        // reading every block proves the DAG is complete
      }
    } else {
      await repo.blocks.get(cid, options.signal);
    }
  }
  const existing = await repo.pins.get(cid);
  if (existing?.type === 'recursive' && !recursive) {
    throw new IpfsNodeError('command', `${cid} already pinned recursively`);
  }
  options.signal?.throwIfAborted();
  await repo.pins.put({ cid, type: recursive ? 'recursive' : 'direct', name: options.name ?? existing?.name ?? '' });
}
