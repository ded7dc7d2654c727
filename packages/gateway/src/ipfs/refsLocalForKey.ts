import type { ServerResponse } from 'node:http';
import { CID } from 'multiformats/cid';
import type { ServedMeter } from './createServedMeter.js';
import { findIndirectPins } from './findIndirectPins.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { writeMeteredNdjson } from './writeMeteredNdjson.js';

/**
 * `refs/local` for one key: the blocks its own pins and its MFS tree keep (each pinned root, the
 * MFS root, and every block under them), never the rest of the node, which holds other keys' data. One
 * `{"Ref","Err"}` line per block, named as Kubo names local blocks (CIDv1 raw of the multihash),
 * each block once; metered as served content.
 *
 * @example
 * await refsLocalForKey(ctx, key, res, meter, signal);
 */
export async function refsLocalForKey(
  ctx: IpfsCommandContext,
  key: string,
  res: ServerResponse,
  meter: ServedMeter | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const pins = await ctx.pins.list(key);
  const recursive = pins.filter((p) => p.type === 'recursive').map((p) => p.cid);
  // the key's MFS tree is stored for it too (its root, once it changed it: the empty directory is nobody's)
  const mfs = await ctx.mfs?.current(key);
  if (mfs !== undefined && mfs.version > 0) recursive.push(mfs.root.toString());
  const under = await findIndirectPins(ctx.upstream, recursive, signal ? { signal } : {});
  const seen = new Set<string>();
  const lines: Array<{ Ref: string; Err: string }> = [];
  for (const text of [...pins.map((p) => p.cid), ...recursive, ...under.keys()]) {
    const cid = CID.parse(text);
    // identity CIDs hold their block: nothing is stored for them (Kubo lists none)
    if (cid.multihash.code === 0x00) continue;
    const ref = CID.createV1(0x55, cid.multihash).toString();
    if (seen.has(ref)) continue;
    seen.add(ref);
    lines.push({ Ref: ref, Err: '' });
  }
  await writeMeteredNdjson(res, lines, meter);
}
