import { resolvePath } from '../../dag/resolvePath.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `dag/resolve`: the block a path ends in and the path left inside it: `{"Cid":{"/":…},"RemPath":…}`. */
export async function dagResolve(ctx: CommandContext): Promise<CommandResult> {
  const { cid, remainder } = await resolvePath(ctx.repo.blocks, ctx.args[0]!, ctx.signal);
  return { kind: 'value', value: { Cid: { '/': ctx.cidString(cid) }, RemPath: remainder.join('/') } };
}
