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
 * `pin/update <from> <to>` for one key: `from` must be the key's own recursive pin (else Kubo's
 * "'from' cid was not recursively pinned already"). The key then owns `to` (recursively) and, with
 * `unpin` (the default), no longer owns `from`; the upstream unpins `from` only when no other
 * key pins it (what only `from` kept then counts as the key's unpinned bytes until the node's next
 * collection). With `room`, an update whose `to` would take the key past its quota is refused
 * (413) before anything changes. Answers `{Pins:[from,to]}`.
 *
 * @example
 * await pinUpdateForKey(ctx, key, new URLSearchParams([['arg', from], ['arg', to]]), res);
 */
export async function pinUpdateForKey(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  res: ServerResponse,
  signal?: AbortSignal,
  room?: { used: number; limit: number },
): Promise<void> {
  const args = params.getAll('arg');
  if (args.length < 2) {
    throw new IpfsCommandError(400, `argument "${args.length === 0 ? 'from-path' : 'to-path'}" is required`, 1);
  }
  const unpin = params.get('unpin') !== 'false';
  const from = await resolvePinArg(ctx.upstream, args[0]!, signal);
  const to = await resolvePinArg(ctx.upstream, args[1]!, signal);
  if ((await ctx.pins.get(key, from))?.type !== 'recursive') {
    throw new IpfsCommandError(500, "'from' cid was not recursively pinned already", 0);
  }
  const shared = (await ctx.pins.owners(from)) > 1;
  const opts = signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 };
  const toSize = await dagSize(ctx.upstream, to, 'recursive', signal);
  const ownTo = await ctx.pins.get(key, to);
  const extra = ownTo?.type === 'recursive' ? 0 : Math.max(0, toSize - (ownTo?.size ?? 0));
  if (room !== undefined && room.used + extra > room.limit) {
    throw new IpfsCommandError(413, storedLimitMessage(room.used, room.limit, extra), 1);
  }
  // what only `from` keeps (not shared with `to`) is left for the node to collect once unpinned
  const fromOnly =
    unpin && !shared && from !== to
      ? Math.max(0, (await dagSize(ctx.upstream, [from, to], 'recursive', signal)) - toSize)
      : 0;
  const query = new URLSearchParams([
    ['arg', from],
    ['arg', to],
    ['unpin', String(unpin && !shared)],
  ]);
  const answer = expectUpstreamOk(await callUpstream(ctx.upstream, 'pin/update', query, opts));
  await ctx.pins.add(key, [{ cid: to, type: 'recursive', size: toSize }]);
  if (unpin && from !== to) {
    await ctx.pins.remove(key, from);
    if (fromOnly > 0) await ctx.pins.addUnpinned(key, fromOnly);
    // another key pinned `from` meanwhile and the upstream unpinned it: pin it again for that key
    if (!shared && (await ctx.pins.owners(from)) > 0) {
      expectUpstreamOk(await callUpstream(ctx.upstream, 'pin/add', { arg: from, recursive: 'true' }, opts));
    }
  }
  const pins = (JSON.parse(answer.toString('utf8')) as { Pins?: unknown }).Pins;
  writeIpfsJson(res, [{ Pins: Array.isArray(pins) ? pins : [from, to] }]);
}
