import { resolvePath } from '../../dag/resolvePath.js';
import { IpfsNodeError } from '../../errors.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `pin/update`: moves a recursive pin from one root to another (`unpin=false` keeps the old one). */
export async function pinUpdate(ctx: CommandContext): Promise<CommandResult> {
  const unpin = ctx.options.bool('unpin');
  const from = (await resolvePath(ctx.repo.blocks, ctx.args[0]!, ctx.signal)).cid;
  const to = (await resolvePath(ctx.repo.blocks, ctx.args[1]!, ctx.signal)).cid;
  const pin = await ctx.repo.pins.get(from);
  if (pin?.type !== 'recursive') throw new IpfsNodeError('command', "'from' cid was not recursively pinned already");
  await ctx.repo.gcLock.shared(async () => {
    await pinRecursive(ctx.repo, to, { name: pin.name, signal: ctx.signal });
    if (unpin && !from.equals(to)) await ctx.repo.pins.delete(from);
  });
  return { kind: 'value', value: { Pins: [ctx.cidString(from), ctx.cidString(to)] } };
}
