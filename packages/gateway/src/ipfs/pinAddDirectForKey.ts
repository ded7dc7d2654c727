import type { ServerResponse } from 'node:http';
import { callUpstream } from './callUpstream.js';
import { dagSize } from './dagSize.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { resolvePinArg } from './resolvePinArg.js';
import { writeIpfsJson } from './writeIpfsJson.js';

/**
 * `pin/add?recursive=false` for one key. A CID another key pins recursively is already kept by
 * the upstream (which would refuse a direct pin with "already pinned recursively"): the key
 * then owns a direct pin without asking the upstream; otherwise the upstream pins it directly.
 * Only the key's own recursive pin gets Kubo's refusal. Each pin is recorded as it is made.
 *
 * @example
 * await pinAddDirectForKey(ctx, key, new URLSearchParams({ arg: 'QmZULk…', recursive: 'false' }), res);
 */
export async function pinAddDirectForKey(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  res: ServerResponse,
  signal?: AbortSignal,
): Promise<void> {
  const args = params.getAll('arg');
  if (args.length === 0) throw new IpfsCommandError(400, 'argument "ipfs-path" is required', 1);
  const opts = signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 };
  const pinned: string[] = [];
  for (const arg of args) {
    const cid = await resolvePinArg(ctx.upstream, arg, signal);
    if ((await ctx.pins.get(key, cid))?.type === 'recursive') {
      throw new IpfsCommandError(500, `${cid} already pinned recursively`, 0);
    }
    const keptRecursively =
      (await callUpstream(ctx.upstream, 'pin/ls', { arg: cid, type: 'recursive' }, opts)).status === 200;
    if (!keptRecursively) {
      expectUpstreamOk(await callUpstream(ctx.upstream, 'pin/add', { arg: cid, recursive: 'false' }, opts));
    }
    await ctx.pins.add(key, [{ cid, type: 'direct', size: await dagSize(ctx.upstream, cid, 'direct', signal) }]);
    pinned.push(cid);
  }
  writeIpfsJson(res, [{ Pins: pinned }]);
}
