import type { CID } from 'multiformats/cid';
import { parseCid } from '../../dag/parseCid.js';
import { multihashKey } from '../../dag/walkDag.js';
import { IpfsNodeError } from '../../errors.js';
import { indirectPins } from '../../pinning/indirectPins.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `block/rm`: removes blocks that no pin protects, emitting `{"Hash"}` or `{"Hash","Error"}`
 * per argument; `force` ignores blocks that are not stored.
 */
export async function blockRm(ctx: CommandContext): Promise<CommandResult> {
  const force = ctx.options.bool('force');
  const quiet = ctx.options.bool('quiet');
  const cids: CID[] = [];
  for (const arg of ctx.args) cids.push(await parseCid(ctx.repo.blocks, arg, ctx.signal));
  const results = await ctx.repo.gcLock.exclusive(async () => {
    const reached = await indirectPins(ctx.repo, ctx.signal);
    const out: Array<{ Hash: string; Error?: string }> = [];
    for (const cid of cids) {
      const pin = await ctx.repo.pins.get(cid);
      const via = reached.get(multihashKey(cid));
      let error: string | undefined;
      if (pin !== undefined) error = `pinned: ${pin.type}`;
      else if (via !== undefined) error = `pinned via ${via.root}`;
      else if (!(await ctx.repo.blocks.has(cid))) error = force ? undefined : 'blockstore: block not found';
      else {
        try {
          await ctx.repo.blocks.delete(cid);
        } catch (err) {
          error = IpfsNodeError.from(err).message;
        }
      }
      if (error !== undefined) out.push({ Hash: ctx.cidString(cid), Error: error });
      else if (!quiet) out.push({ Hash: ctx.cidString(cid) });
    }
    return out;
  });
  return {
    kind: 'values',
    values: (async function* () {
      yield* results;
    })(),
  };
}
