import type { CommandContext, CommandResult } from './types.js';

/** `version`: Kubo's version object; `Golang` reports the Node.js runtime instead. */
export async function version(ctx: CommandContext): Promise<CommandResult> {
  return {
    kind: 'value',
    value: {
      Version: ctx.node.version,
      Commit: '',
      Repo: '16',
      System: `${process.arch}/${process.platform}`,
      Golang: `node${process.versions.node}`,
    },
  };
}
