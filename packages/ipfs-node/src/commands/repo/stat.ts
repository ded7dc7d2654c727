import { stat, statfs } from 'node:fs/promises';
import type { CommandContext, CommandResult } from '../types.js';

/** The repo format this node writes (reported by `repo/stat` and `repo/version`). */
export const REPO_VERSION = 'fs-repo@16';

/**
 * `repo/stat`: `{"RepoSize","StorageMax","NumObjects","RepoPath","Version"}` measured from the
 * block files (RepoSize: their bytes; NumObjects: their count); StorageMax is the size of the
 * file system the repo lives on (the node sets no storage cap of its own). `size-only` leaves
 * out NumObjects, RepoPath and Version, as Kubo does.
 */
export async function repoStat(ctx: CommandContext): Promise<CommandResult> {
  const blocks = ctx.repo.blocks;
  let size = 0;
  let count = 0;
  for await (const cid of blocks.cids()) {
    ctx.signal.throwIfAborted();
    try {
      size += (await stat(blocks.fileOf(cid))).size;
      count++;
    } catch (err) {
      // removed while counting (a collection): not in the repo any more
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  const fs = await statfs(ctx.repo.path);
  const storageMax = fs.blocks * fs.bsize;
  if (ctx.options.bool('size-only')) return { kind: 'value', value: { RepoSize: size, StorageMax: storageMax } };
  return {
    kind: 'value',
    value: {
      RepoSize: size,
      StorageMax: storageMax,
      NumObjects: count,
      RepoPath: ctx.repo.path,
      Version: REPO_VERSION,
    },
  };
}
