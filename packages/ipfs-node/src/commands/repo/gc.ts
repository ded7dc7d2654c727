import { CID } from 'multiformats/cid';
import { multihashKey } from '../../dag/walkDag.js';
import { indirectPins } from '../../pinning/indirectPins.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `repo/gc`: removes every block that no pin reaches, holding the GC lock exclusively (adds and
 * pins in progress finish first). Emits `{"Key":{"/":cid}}` per removed block (CIDv1 raw, as
 * Kubo names blocks by multihash). If a pinned DAG has a missing block, nothing is removed.
 * Temporary files of block writes that a crash interrupted are removed too.
 */
export async function repoGc(ctx: CommandContext): Promise<CommandResult> {
  const quiet = ctx.options.bool('quiet');
  const removed = await ctx.repo.gcLock.exclusive(async () => {
    const keep = new Set((await indirectPins(ctx.repo, ctx.signal)).keys());
    for await (const pin of ctx.repo.pins.all()) keep.add(multihashKey(pin.cid));
    const gone: CID[] = [];
    for await (const cid of ctx.repo.blocks.cids()) {
      if (keep.has(multihashKey(cid))) continue;
      ctx.signal.throwIfAborted();
      await ctx.repo.blocks.delete(cid);
      gone.push(CID.createV1(0x55, cid.multihash));
    }
    // no write is in progress under the exclusive lock: leftover temporary files are stale
    await ctx.repo.blocks.removeStaleTempFiles();
    return gone;
  });
  return {
    kind: 'values',
    values: (async function* () {
      if (quiet) return;
      for (const cid of removed) yield { Key: { '/': ctx.cidString(cid) } };
    })(),
  };
}
