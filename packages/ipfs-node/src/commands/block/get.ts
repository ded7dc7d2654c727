import { parseCid } from '../../dag/parseCid.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `block/get`: the raw bytes of one block. */
export async function blockGet(ctx: CommandContext): Promise<CommandResult> {
  const cid = await parseCid(ctx.repo.blocks, ctx.args[0]!, ctx.signal);
  const bytes = await ctx.repo.blocks.get(cid, ctx.signal);
  return {
    kind: 'bytes',
    body: (async function* () {
      yield bytes;
    })(),
  };
}
