import type { CommandContext, CommandResult } from '../types.js';

/**
 * `refs/local`: every block the repo holds, one `{"Ref","Err"}` line each, named as Kubo names
 * them (a CIDv1 raw of the stored multihash, whatever codec the block was stored under).
 */
export async function refsLocal(ctx: CommandContext): Promise<CommandResult> {
  const blocks = ctx.repo.blocks;
  return {
    kind: 'values',
    values: (async function* () {
      for await (const cid of blocks.cids()) {
        ctx.signal.throwIfAborted();
        yield { Ref: cid.toString(), Err: '' };
      }
    })(),
  };
}
