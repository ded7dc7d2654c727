import type { ServerResponse } from 'node:http';
import { callUpstream } from './callUpstream.js';
import { canonicalCid } from './canonicalCid.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { findIndirectPins } from './findIndirectPins.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { writeIpfsJson } from './writeIpfsJson.js';

const TYPES = ['all', 'direct', 'indirect', 'recursive'];
const INDIRECT_THROUGH = 'indirect through ';

/**
 * `pin/ls` for one key: only the key's own pins, in Kubo's shapes (`{Keys:{cid:{Type,Name}}}`,
 * or NDJSON `{Cid,Type}` with `stream=true`), with the `type` filter. Indirect pins are those
 * under the key's recursive pins. For `arg` paths, a CID the key does not pin gets exactly
 * Kubo's answer for an unpinned path (`path '…' is not pinned`, 500).
 *
 * @example
 * await pinLsForKey(ctx, key, new URLSearchParams({ type: 'recursive', stream: 'true' }), res);
 */
export async function pinLsForKey(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  res: ServerResponse,
  signal?: AbortSignal,
): Promise<void> {
  const type = params.get('type') ?? 'all';
  if (!TYPES.includes(type)) {
    throw new IpfsCommandError(500, `invalid type '${type}', must be one of {direct, indirect, recursive, all}`, 0);
  }
  const wantIndirect = type === 'all' || type === 'indirect';
  const listed: Array<{ cid: string; type: string }> = [];
  const args = params.getAll('arg');
  if (args.length > 0) {
    for (const arg of args) {
      // the upstream resolves the path and answers Kubo's own error when nothing pins it
      const query: Record<string, string> = { arg };
      const cidBase = params.get('cid-base');
      if (cidBase !== null) query['cid-base'] = cidBase;
      const answer = expectUpstreamOk(
        await callUpstream(
          ctx.upstream,
          'pin/ls',
          query,
          signal ? { maxBytes: 1 << 20, signal } : { maxBytes: 1 << 20 },
        ),
      );
      const keys = (JSON.parse(answer.toString('utf8')) as { Keys?: Record<string, { Type?: string }> }).Keys ?? {};
      const [cidText, status] = Object.entries(keys)[0] ?? [];
      const cid = cidText === undefined ? undefined : canonicalCid(cidText);
      if (cidText === undefined || cid === undefined) throw notPinned(arg);
      const own = await ctx.pins.get(key, cid);
      if (own !== undefined && (type === 'all' || type === own.type)) {
        listed.push({ cid: cidText, type: own.type });
        continue;
      }
      const via = wantIndirect ? await indirectRoot(ctx, key, cid, status?.Type, signal) : undefined;
      if (via === undefined) throw notPinned(arg);
      listed.push({ cid: cidText, type: `${INDIRECT_THROUGH}${via}` });
    }
  } else {
    const own = await ctx.pins.list(key);
    for (const p of own) if (type === 'all' || type === p.type) listed.push({ cid: p.cid, type: p.type });
    if (wantIndirect) {
      const roots = own.filter((p) => p.type === 'recursive').map((p) => p.cid);
      const ownCids = new Set(own.map((p) => p.cid));
      const signalOption = signal ? { signal } : {};
      for (const cid of (await findIndirectPins(ctx.upstream, roots, signalOption)).keys()) {
        if (!ownCids.has(cid)) listed.push({ cid, type: 'indirect' });
      }
    }
  }
  if (params.get('stream') === 'true') {
    writeIpfsJson(
      res,
      listed.map((p) => ({ Cid: p.cid, Type: p.type })),
      { stream: true },
    );
    return;
  }
  const keys: Record<string, { Type: string; Name: string }> = {};
  for (const p of listed) keys[p.cid] = { Type: p.type, Name: '' };
  writeIpfsJson(res, [{ Keys: keys }]);
}

/** The key's recursive root `cid` is reached from, if any. */
async function indirectRoot(
  ctx: IpfsCommandContext,
  key: string,
  cid: string,
  upstreamType: string | undefined,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (upstreamType?.startsWith(INDIRECT_THROUGH)) {
    const root = canonicalCid(upstreamType.slice(INDIRECT_THROUGH.length));
    if (root !== undefined && (await ctx.pins.get(key, root))?.type === 'recursive') return root;
  }
  const roots = (await ctx.pins.list(key, 'recursive')).map((p) => p.cid).filter((r) => r !== cid);
  if (roots.length === 0) return undefined;
  const reached = await findIndirectPins(ctx.upstream, roots, signal ? { target: cid, signal } : { target: cid });
  return reached.get(cid);
}

function notPinned(arg: string): IpfsCommandError {
  return new IpfsCommandError(500, `path '${arg}' is not pinned`, 0);
}
