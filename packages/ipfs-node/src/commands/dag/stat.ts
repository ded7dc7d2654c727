import { multihashKey, walkDag } from '../../dag/walkDag.js';
import { parseCid } from '../../dag/parseCid.js';
import { resolvePath } from '../../dag/resolvePath.js';
import { IpfsNodeError } from '../../errors.js';
import type { CommandContext, CommandResult } from '../types.js';

/** One root's figures in a `dag/stat` answer. */
interface RootStat {
  Cid: { '/': string };
  Size: number;
  NumBlocks: number;
}

/** A progress line is written every this many blocks (and the summary at the end). */
const PROGRESS_EVERY = 256;

/**
 * `dag/stat`: walks each root's DAG over the local blocks (a missing block fails) and answers
 * Kubo's summary, `{"UniqueBlocks","TotalSize","SharedSize","Ratio","DagStats":[{"Cid","Size","NumBlocks"}]}`:
 * sizes are the stored blocks' own byte lengths (raw leaves are sized by a file stat, not read),
 * never the Tsize a parent claims for its links. `TotalSize` counts each block once across all
 * roots; `SharedSize` is what the roots' sizes count more than once. With `progress` (Kubo's
 * default), summaries so far are written as the walk goes, the last line is the final one.
 */
export async function dagStat(ctx: CommandContext): Promise<CommandResult> {
  const progress = ctx.options.bool('progress');
  const roots = [];
  for (const arg of ctx.args) {
    if (!arg.includes('/')) {
      roots.push(await parseCid(ctx.repo.blocks, arg, ctx.signal));
      continue;
    }
    const { cid, remainder } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
    if (remainder.length > 0) {
      throw new IpfsNodeError('command', 'cannot return size for anything other than a DAG with a root CID');
    }
    roots.push(cid);
  }
  const stats: RootStat[] = [];
  const everySeen = new Set<string>();
  let totalSize = 0;
  let redundantSize = 0;
  const summary = (final: boolean) => ({
    ...(everySeen.size > 0 && final ? { UniqueBlocks: everySeen.size } : {}),
    ...(totalSize > 0 ? { TotalSize: totalSize } : {}),
    ...(final && redundantSize > totalSize ? { SharedSize: redundantSize - totalSize } : {}),
    ...(final && totalSize > 0 ? { Ratio: redundantSize / totalSize } : {}),
    DagStats: stats.map((s) => ({ ...s })),
  });
  const blocks = ctx.repo.blocks;
  const signal = ctx.signal;
  return {
    kind: 'values',
    values: (async function* () {
      let walked = 0;
      for (const root of roots) {
        const stat: RootStat = { Cid: { '/': ctx.cidString(root) }, Size: 0, NumBlocks: 0 };
        stats.push(stat);
        for await (const block of walkDag(blocks, root, { signal, readLeaves: false })) {
          const size = block.bytes === undefined ? await blocks.size(block.cid) : block.bytes.byteLength;
          stat.Size += size;
          stat.NumBlocks++;
          redundantSize += size;
          const key = multihashKey(block.cid);
          if (!everySeen.has(key)) {
            everySeen.add(key);
            totalSize += size;
          }
          if (progress && ++walked % PROGRESS_EVERY === 0) yield summary(false);
        }
      }
      yield summary(true);
    })(),
  };
}
