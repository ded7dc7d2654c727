import type { ServerResponse } from 'node:http';
import { callUpstream } from './callUpstream.js';
import { dagSize } from './dagSize.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { resolvePinArg } from './resolvePinArg.js';
import { storedLimitMessage } from './storedLimitMessage.js';
import { writeIpfsJson } from './writeIpfsJson.js';

/**
 * `pin/add?recursive=false` for one key. A CID another key pins recursively is already kept by
 * the upstream (which would refuse a direct pin with "already pinned recursively"): the key
 * then owns a direct pin without asking the upstream; otherwise the upstream pins it directly.
 * Only the key's own recursive pin gets Kubo's refusal. Each pin is recorded as it is made, at
 * its block's size; with `room`, a pin that would take the key past its quota is refused (413).
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
  room?: { used: number; limit: number },
): Promise<void> {
  const args = params.getAll('arg');
  if (args.length === 0) throw new IpfsCommandError(400, 'argument "ipfs-path" is required', 1);
  const opts = signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 };
  const pinned: string[] = [];
  let used = room?.used ?? 0;
  for (const arg of args) {
    const cid = await resolvePinArg(ctx.upstream, arg, signal);
    const own = await ctx.pins.get(key, cid);
    if (own?.type === 'recursive') {
      throw new IpfsCommandError(500, `${cid} already pinned recursively`, 0);
    }
    const size = await dagSize(ctx.upstream, cid, 'direct', signal);
    if (room !== undefined && own === undefined) {
      if (used + size > room.limit) throw new IpfsCommandError(413, storedLimitMessage(used, room.limit, size), 1);
      used += size;
    }
    const keptRecursively =
      (await callUpstream(ctx.upstream, 'pin/ls', { arg: cid, type: 'recursive' }, opts)).status === 200;
    if (!keptRecursively) {
      expectUpstreamOk(await callUpstream(ctx.upstream, 'pin/add', { arg: cid, recursive: 'false' }, opts));
    }
    await ctx.pins.add(key, [{ cid, type: 'direct', size }]);
    pinned.push(cid);
  }
  writeIpfsJson(res, [{ Pins: pinned }]);
}
