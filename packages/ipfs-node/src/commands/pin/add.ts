import { resolvePath } from '../../dag/resolvePath.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import type { CommandContext, CommandResult } from '../types.js';

/** `pin/add`: pins each path (recursively by default) once its DAG is complete locally; `{"Pins":[…]}`. */
export async function pinAdd(ctx: CommandContext): Promise<CommandResult> {
  const recursive = ctx.options.bool('recursive');
  const name = ctx.options.string('name');
  const pins: string[] = [];
  await ctx.repo.gcLock.shared(async () => {
    for (const arg of ctx.args) {
      const { cid } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
      await pinRecursive(ctx.repo, cid, {
        recursive,
        signal: ctx.signal,
        ...(name === undefined ? {} : { name }),
      });
      pins.push(ctx.cidString(cid));
    }
  });
  return { kind: 'value', value: { Pins: pins } };
}
