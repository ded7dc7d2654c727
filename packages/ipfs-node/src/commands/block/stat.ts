import { parseCid } from '../../dag/parseCid.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `block/stat`: `{"Key","Size"}` of one stored block. */
export async function blockStat(ctx: CommandContext): Promise<CommandResult> {
  const cid = await parseCid(ctx.repo.blocks, ctx.args[0]!, ctx.signal);
  const bytes = await ctx.repo.blocks.get(cid, ctx.signal);
  return { kind: 'value', value: { Key: ctx.cidString(cid), Size: bytes.byteLength } };
}
