import type { ServerResponse } from 'node:http';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { PinType } from './pins/PinStore.js';
import { resolvePinArg } from './resolvePinArg.js';
import { writeIpfsJson } from './writeIpfsJson.js';

/** Kubo's answer for a pin that is not there (boxo `ErrNotPinned`). */
const NOT_PINNED = 'not pinned or pinned indirectly';

/**
 * `pin/rm` for one key: every argument must be a pin the key owns (else Kubo's "not pinned"
 * answer, before anything is removed; `recursive=false` on a recursive pin is refused as Kubo
 * does). Removing deletes the key's ownership; the upstream unpins only when no other key
 * still pins the CID, and then the pin's size counts as the key's unpinned bytes until the node's
 * next collection removes the blocks. Answers `{Pins:[…]}`.
 *
 * @example
 * await pinRmForKey(ctx, key, new URLSearchParams({ arg: 'QmZULk…' }), res);
 */
export async function pinRmForKey(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  res: ServerResponse,
  signal?: AbortSignal,
): Promise<void> {
  const recursive = params.get('recursive') !== 'false';
  const args = params.getAll('arg');
  if (args.length === 0) throw new IpfsCommandError(400, 'argument "ipfs-path" is required', 1);
  const targets: Array<{ cid: string; type: PinType; size: number }> = [];
  for (const arg of args) {
    const cid = await resolvePinArg(ctx.upstream, arg, signal);
    const own = await ctx.pins.get(key, cid);
    if (own === undefined) throw new IpfsCommandError(500, NOT_PINNED, 0);
    if (own.type === 'recursive' && !recursive) throw new IpfsCommandError(500, `${cid} is pinned recursively`, 0);
    targets.push({ cid, type: own.type, size: own.size });
  }
  const opts = signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 };
  for (const { cid, type, size } of targets) {
    if (!(await ctx.pins.remove(key, cid))) continue; // a concurrent pin/rm of the same key got there first
    if ((await ctx.pins.owners(cid)) > 0) continue;
    const answer = await callUpstream(ctx.upstream, 'pin/rm', { arg: cid, recursive: 'true' }, opts);
    if (answer.status !== 200 && !answer.body.toString('utf8').includes(NOT_PINNED)) {
      await ctx.pins.add(key, [{ cid, type, size }]).catch(() => {});
      expectUpstreamOk(answer);
    }
    // the node keeps the blocks until it collects them: they count for the key until then
    await ctx.pins.addUnpinned(key, size);
    // another key pinned it while the upstream was unpinning: pin it again for that key
    if ((await ctx.pins.owners(cid)) > 0) {
      expectUpstreamOk(await callUpstream(ctx.upstream, 'pin/add', { arg: cid, recursive: 'true' }, opts));
    }
  }
  writeIpfsJson(res, [{ Pins: targets.map((t) => t.cid) }]);
}
