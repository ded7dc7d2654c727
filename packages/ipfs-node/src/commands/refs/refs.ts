import type { CID } from 'multiformats/cid';
import { namedLinks } from '../../dag/namedLinks.js';
import { resolvePath } from '../../dag/resolvePath.js';
import { IpfsNodeError } from '../../errors.js';
import type { BlockStore } from '../../repo/BlockStore.js';
import type { CommandContext, CommandResult } from '../types.js';

const RAW = 0x55;

/** One `refs` answer line (Kubo's RefWrapper: both fields always present). */
interface RefLine {
  Ref: string;
  Err: string;
}

/**
 * `refs`: the links out of each path's block, one `{"Ref","Err"}` line per link, as Kubo's
 * RefWriter walks them: `recursive` descends (to `max-depth`; 0 prints nothing), `unique`
 * prints a block once (and prunes what was explored deep enough), `format` replaces `<src>`,
 * `<dst>` and `<linkname>` (default `<dst>`), `edges` prints `<src> -> <dst>` (not with
 * `format`). A block missing on the way is reported as a line with `Err` (Kubo does the same).
 */
export async function refs(ctx: CommandContext): Promise<CommandResult> {
  const edges = ctx.options.bool('edges');
  const given = ctx.options.string('format');
  if (edges && given !== undefined && given !== '<dst>') {
    throw new IpfsNodeError('client', 'using format argument with edges is not allowed');
  }
  const format = edges ? '<src> -> <dst>' : (given ?? '<dst>');
  const recursive = ctx.options.bool('recursive');
  const maxDepth = recursive ? (ctx.options.int('max-depth') ?? -1) : 1;
  const unique = ctx.options.bool('unique');
  const store = ctx.repo.blocks;
  const roots: CID[] = [];
  for (const arg of ctx.args) {
    const resolved = await resolvePath(store, arg, ctx.signal);
    if (resolved.remainder.length > 0) {
      throw new IpfsNodeError('command', `no link named "${resolved.remainder[0]}" under ${resolved.cid}`);
    }
    roots.push(resolved.cid);
  }
  const seen = new Map<string, number>();
  const line = (from: CID, to: CID, name: string): RefLine => ({
    Ref: format
      .replaceAll('<src>', ctx.cidString(from))
      .replaceAll('<dst>', ctx.cidString(to))
      .replaceAll('<linkname>', name),
    Err: '',
  });
  // visit: [go deeper, print] for a child at `depth`, as Kubo's RefWriter prunes
  const visit = (cid: CID, depth: number): [boolean, boolean] => {
    const atMax = maxDepth >= 0 && depth === maxDepth;
    if (maxDepth >= 0 && depth > maxDepth) return [false, false];
    if (!unique) return [!atMax, true];
    const key = cid.multihash.bytes.toString();
    const old = seen.get(key);
    if (old !== undefined && (maxDepth < 0 || old <= depth)) return [false, false];
    seen.set(key, depth);
    return [!atMax, old === undefined];
  };
  async function* walk(cid: CID, depth: number): AsyncGenerator<RefLine> {
    if (cid.code === RAW) return; // a raw block links to nothing: no need to read it
    const bytes = await store.get(cid, ctx.signal);
    for (const link of namedLinks(cid, bytes)) {
      const [deeper, print] = visit(link.cid, depth + 1);
      if (!deeper && !print) continue;
      // a printed ref is always one the node has (Kubo fetches it before printing)
      if (print) {
        await assertStored(store, link.cid);
        yield line(cid, link.cid, link.name);
      }
      if (deeper) yield* walk(link.cid, depth + 1);
    }
  }
  return {
    kind: 'values',
    values: (async function* () {
      for (const root of roots) {
        try {
          yield* walk(root, 0);
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          yield { Ref: '', Err: IpfsNodeError.from(err).message };
        }
      }
    })(),
  };
}

async function assertStored(store: BlockStore, cid: CID): Promise<void> {
  if (!(await store.has(cid))) throw IpfsNodeError.blockNotFound(cid.toString());
}
