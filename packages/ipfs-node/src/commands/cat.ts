import { resolvePath } from '../dag/resolvePath.js';
import { IpfsNodeError } from '../errors.js';
import { type FileContent, readFileContent } from '../unixfs/readFileContent.js';
import type { CommandContext, CommandResult } from './types.js';

/**
 * `cat`: the bytes of one or more files, concatenated; `offset` and `length` apply to the
 * concatenation. All paths are resolved before the first byte is sent (so a bad path is a 500),
 * then blocks are read only as fast as the client takes them.
 */
export async function cat(ctx: CommandContext): Promise<CommandResult> {
  const offset = ctx.options.int('offset') ?? 0;
  if (offset < 0) throw new IpfsNodeError('command', 'cannot specify negative offset');
  const length = ctx.options.int('length');
  if (length !== undefined && length < 0) throw new IpfsNodeError('command', 'cannot specify negative length');
  const files: FileContent[] = [];
  for (const arg of ctx.args) {
    const { cid } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
    files.push(await readFileContent(ctx.repo.blocks, cid, ctx.signal));
  }
  const total = files.reduce((sum, f) => sum + f.size, 0n);
  const start = BigInt(offset) > total ? total : BigInt(offset);
  let remaining = total - start;
  if (length !== undefined && BigInt(length) < remaining) remaining = BigInt(length);
  const signal = ctx.signal;
  const want = remaining;
  async function* body(): AsyncGenerator<Uint8Array> {
    let skip = start;
    let left = want;
    for (const file of files) {
      if (left <= 0n) return;
      if (skip >= file.size) {
        skip -= file.size;
        continue;
      }
      let take = file.size - skip;
      if (take > left) take = left;
      yield* file.read({ offset: skip, length: take, signal });
      left -= take;
      skip = 0n;
    }
  }
  return { kind: 'bytes', body: body(), length: want };
}
