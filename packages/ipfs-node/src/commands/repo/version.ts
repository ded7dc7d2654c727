import type { CommandContext, CommandResult } from '../types.js';
import { REPO_VERSION } from './stat.js';

/** `repo/version`: `{"Version":"16"}`, the repo format number alone, as Kubo's JSON has it. */
export async function repoVersion(_ctx: CommandContext): Promise<CommandResult> {
  return { kind: 'value', value: { Version: REPO_VERSION.slice(REPO_VERSION.indexOf('@') + 1) } };
}
