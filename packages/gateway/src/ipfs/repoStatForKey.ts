import type { ServerResponse } from 'node:http';
import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { findIndirectPins } from './findIndirectPins.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { writeIpfsJson } from './writeIpfsJson.js';

/**
 * `repo/stat` for one key, in Kubo's shape: the key's view of the repo, never the node's (which
 * would tell how much other keys store). `RepoSize` is what the key stores (its pins and its
 * unpinned bytes not yet collected: the storage quota's measure), `StorageMax` its quota,
 * `NumObjects` the blocks its pins keep, `RepoPath` empty (the node's path is not the key's
 * business), `Version` the upstream's repo version. `size-only` answers the first two only.
 *
 * @example
 * await repoStatForKey(ctx, key, new URLSearchParams(), res, signal);
 */
export async function repoStatForKey(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  res: ServerResponse,
  signal?: AbortSignal,
): Promise<void> {
  const repoSize = await ctx.pins.storedBytes(key);
  const storageMax = ctx.limits.maxStoredBytesPerKey;
  if (params.get('size-only') === 'true') {
    writeIpfsJson(res, [{ RepoSize: repoSize, StorageMax: storageMax }]);
    return;
  }
  const pins = await ctx.pins.list(key);
  const recursive = pins.filter((p) => p.type === 'recursive').map((p) => p.cid);
  // the key's MFS tree is stored for it too (RepoSize counts it: so do its objects)
  const mfs = await ctx.mfs?.current(key);
  if (mfs !== undefined && mfs.version > 0) recursive.push(mfs.root.toString());
  const under = await findIndirectPins(ctx.upstream, recursive, signal ? { signal } : {});
  const blocks = new Set<string>();
  for (const text of [...pins.map((p) => p.cid), ...recursive, ...under.keys()]) {
    blocks.add(Buffer.from(CID.parse(text).multihash.bytes).toString('base64'));
  }
  const opts = signal ? { maxBytes: 4096, signal } : { maxBytes: 4096 };
  const version = JSON.parse(
    expectUpstreamOk(await callUpstream(ctx.upstream, 'repo/version', {}, opts)).toString('utf8'),
  ) as { Version?: unknown };
  writeIpfsJson(res, [
    {
      RepoSize: repoSize,
      StorageMax: storageMax,
      NumObjects: blocks.size,
      RepoPath: '',
      Version: `fs-repo@${String(version.Version ?? '')}`,
    },
  ]);
}
