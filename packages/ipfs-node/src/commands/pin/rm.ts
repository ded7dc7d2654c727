import { resolvePath } from '../../dag/resolvePath.js';
import { IpfsNodeError } from '../../errors.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `pin/rm`: removes the pins of the given paths; `{"Pins":[…]}`. Blocks stay until `repo/gc`. */
export async function pinRm(ctx: CommandContext): Promise<CommandResult> {
  const recursive = ctx.options.bool('recursive');
  const removed: string[] = [];
  for (const arg of ctx.args) {
    const { cid } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
    const pin = await ctx.repo.pins.get(cid);
    if (pin === undefined) throw new IpfsNodeError('command', 'not pinned or pinned indirectly');
    if (pin.type === 'recursive' && !recursive) throw new IpfsNodeError('command', `${cid} is pinned recursively`);
    await ctx.repo.pins.delete(cid);
    removed.push(ctx.cidString(cid));
  }
  return { kind: 'value', value: { Pins: removed } };
}
