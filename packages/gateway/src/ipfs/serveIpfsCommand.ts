import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalOptions } from './canonicalOptions.js';
import { createMultipartNameGuard } from './createMultipartNameGuard.js';
import { createPinRecorder } from './createPinRecorder.js';
import type { ServedMeter } from './createServedMeter.js';
import { dagSize } from './dagSize.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { isFilesCommand, serveFilesCommand } from './mfs/serveFilesCommand.js';
import { pinAddDirectForKey } from './pinAddDirectForKey.js';
import { pinLsForKey } from './pinLsForKey.js';
import { pinRmForKey } from './pinRmForKey.js';
import { pinUpdateForKey } from './pinUpdateForKey.js';
import { proxyToUpstream } from './proxyToUpstream.js';
import { refsLocalForKey } from './refsLocalForKey.js';
import { repoStatForKey } from './repoStatForKey.js';
import { resolveIpfsCommand } from './resolveIpfsCommand.js';
import { resolvePinArg } from './resolvePinArg.js';
import { storedLimitMessage } from './storedLimitMessage.js';
import { type ObjectCommandName, runObjectCommand } from './runObjectCommand.js';
import { unnormalisedPathProblem } from './unnormalisedPathProblem.js';
import { discardRequestBody, writeIpfsError, writeIpfsText } from './writeIpfsError.js';
import { writeIpfsJson } from './writeIpfsJson.js';

const API = '/api/v0/';

/**
 * Everything the IPFS route does once a request's key is authenticated (the CORS preflight,
 * which needs no key, is answered before): POST only (405), the path must read as
 * it normalises (400 otherwise), then the command (404 unknown, 403 outside `ipfs.allow`),
 * size and stored-bytes limits (413), file-name checks on `add` (400), and the command itself:
 * pin/ls, pin/rm and pin/update over the key's own pins, refs/local and repo/stat as the key's own
 * view of the node (what its pins keep), repo/gc as the route's collection, object/* by the
 * gateway, the rest proxied to the upstream under the resolved command path (never the raw one),
 * recording the pins the key makes.
 *
 * Stored bytes are what the key makes the node store, measured by the gateway: pins at their
 * DAGs' stored sizes (never a client's `Tsize`), and every uploaded byte no pin of the request
 * keeps (`pin=false`, a cut upload, blocks of a CAR no root reaches) as unpinned bytes until the
 * node's next collection. A `pin/add` or `pin/update` that would pass the quota is refused
 * before anything is pinned. With a `meter`, answers that carry content (cat, get, ls, block/get,
 * dag/get, dag/export) are paced, charged and bounded by the key's served-bytes limits.
 *
 * Errors are thrown only before the answer started (`IpfsCommandError`, or `UpstreamCallError`
 * for an unreachable upstream): the caller writes them.
 *
 * @example
 * const r = await authenticateBasic(req.headers.authorization, keys);
 * if (r.ok) await serveIpfsCommand(r.record.key, req, res, '/api/v0/cat?arg=QmZULk…', ctx);
 */
export async function serveIpfsCommand(
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  ctx: IpfsCommandContext,
  meter?: ServedMeter,
): Promise<void> {
  const { limits, upstream } = ctx;
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  if (!path.startsWith(API)) return writeIpfsText(req, res, 404, '404 page not found');
  if (req.method !== 'POST') {
    return writeIpfsText(req, res, 405, '405 - Method Not Allowed', { allow: 'OPTIONS, POST' });
  }
  const problem = path === API ? undefined : unnormalisedPathProblem(path);
  if (problem !== undefined) {
    return writeIpfsError(
      req,
      res,
      400,
      `request path is not normalised (${problem}): send the command path as it normalises, e.g. /api/v0/cat?arg=<cid>`,
      1,
    );
  }
  const command = resolveIpfsCommand(path.slice(API.length));
  if (command === undefined) return writeIpfsText(req, res, 404, '404 page not found');
  if (!ctx.allowed.has(command.name)) {
    return writeIpfsError(req, res, 403, `command "${command.name}" is not allowed on this gateway`, 1);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.maxRequestBytes) {
    return writeIpfsError(req, res, 413, `request body too large: the limit is ${limits.maxRequestBytes} bytes`, 1);
  }
  // decide on the parsed query and forward what was decided: the trailing path segment is the first argument
  const params = new URLSearchParams(q < 0 ? '' : rest.slice(q + 1));
  if (command.pathArg !== undefined) {
    const args = params.getAll('arg');
    params.delete('arg');
    for (const a of [command.pathArg, ...args]) params.append('arg', a);
  }
  canonicalOptions(command.name, params);
  // files/*: the key's own MFS, kept by the gateway (its uploads and quota are counted there)
  if (isFilesCommand(command.name)) return serveFilesCommand(command.name, key, req, res, params, ctx, meter);
  const stores = command.spec.storesBytes && params.get('only-hash') !== 'true';
  const grows = command.name === 'pin/add' || command.name === 'pin/update';
  const limit = limits.maxStoredBytesPerKey;
  // a storing command opens its upload before reading the database: an upload of the key that
  // is recorded meanwhile is then counted twice (never missed)
  const upload = stores ? trackUpload(ctx, key, res) : undefined;
  let used = 0;
  if (stores || grows) {
    used = (await ctx.pins.storedBytes(key)) + (upload?.pendingAtOpen ?? ctx.uploads.pending(key));
    if (used >= limit || (stores && used + declared > limit)) {
      return writeIpfsError(req, res, 413, storedLimitMessage(used, limit), 1);
    }
  }
  if (meter !== undefined && command.spec.servesContent) {
    const refusal = await meter.refuseBefore();
    if (refusal !== undefined) throw refusal;
  }

  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const signal = controller.signal;
  const directPinAdd = command.name === 'pin/add' && params.get('recursive') === 'false';
  switch (command.name) {
    case 'pin/add':
      if (directPinAdd) discardRequestBody(req);
      break;
    case 'pin/ls':
    case 'pin/rm':
    case 'pin/update':
    case 'refs/local':
    case 'repo/stat':
    case 'repo/gc':
      discardRequestBody(req);
  }
  const room = { used, limit };
  switch (command.name) {
    case 'pin/ls':
      return pinLsForKey(ctx, key, params, res, signal);
    case 'pin/rm':
      return pinRmForKey(ctx, key, params, res, signal);
    case 'pin/update':
      return pinUpdateForKey(ctx, key, params, res, signal, room);
    case 'pin/add':
      if (directPinAdd) return pinAddDirectForKey(ctx, key, params, res, signal, room);
      break;
    // the key's own view of the node: what its pins keep, never other keys' data
    case 'refs/local':
      return refsLocalForKey(ctx, key, res, meter, signal);
    case 'repo/stat':
      return repoStatForKey(ctx, key, params, res, signal);
    case 'repo/gc':
      if (ctx.collect === undefined) throw new IpfsCommandError(500, 'garbage collection is not available', 0);
      await ctx.collect();
      // Kubo lists the removed blocks: they may be other keys' data, so none is named
      return writeIpfsJson(res, [], { stream: true });
  }
  // what a storing command makes the node store: every body byte forwarded counts for the key
  // (pending meanwhile) until it is recorded, as unpinned bytes unless the pins it made keep them
  if (command.spec.servedBy === 'gateway') {
    await runObjectCommand(command.name as ObjectCommandName, req, res, upstream, params, {
      maxRequestBytes: limits.maxRequestBytes,
      beforeStore: (bytes) => {
        if (!upload?.admit(bytes, used, limit)) throw new IpfsCommandError(413, storedLimitMessage(used, limit), 1);
      },
      onStored: async ({ cid, pinned }) => {
        if (!pinned) return;
        await ctx.pins.add(key, [{ cid, type: 'recursive', size: await dagSize(upstream, cid, 'recursive') }]);
        upload?.coveredBy(() => Number.POSITIVE_INFINITY);
      },
    });
    return;
  }
  // pin/add (recursive): the DAGs' stored sizes are read first, and must fit in what the key may store
  const knownSizes = command.name === 'pin/add' ? await sizeNewPins(ctx, key, params, room, signal) : undefined;
  const recorder = createPinRecorder(ctx, key, command.name, params, knownSizes);
  if (recorder !== undefined) upload?.coveredBy(recorder.covered);
  const forward = (recorder?.forward ?? params).toString();
  const guard = command.name === 'add' ? createMultipartNameGuard(req.headers['content-type']) : undefined;
  proxyToUpstream(req, res, {
    upstream: upstream.url,
    agent: upstream.agent,
    path: `${ctx.basePath}${API}${command.name}${forward === '' ? '' : `?${forward}`}`,
    headers: upstream.headers,
    idleTimeoutMs: upstream.idleTimeoutMs,
    maxRequestBytes: limits.maxRequestBytes,
    resetOnStreamError: ctx.resetOnStreamError,
    ...(stores
      ? {
          storage: {
            admit: (bytes: number) => upload?.admit(bytes, used, limit) ?? false,
            limitMessage: storedLimitMessage(used, limit),
          },
        }
      : {}),
    ...(guard ? { inspectBody: (chunk: Buffer) => guard.inspect(chunk), holdAnswerUntilBodyEnd: true } : {}),
    ...(recorder ? { observe: recorder.observe } : {}),
    ...(meter !== undefined && command.spec.servesContent ? { meter } : {}),
  });
}

/**
 * For `pin/add` (recursive): the stored size of each DAG named (by canonical CID), after checking
 * that what the key does not pin yet fits in what it may still store (413 otherwise).
 */
async function sizeNewPins(
  ctx: IpfsCommandContext,
  key: string,
  params: URLSearchParams,
  room: { used: number; limit: number },
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let extra = 0;
  for (const arg of params.getAll('arg')) {
    const cid = await resolvePinArg(ctx.upstream, arg, signal);
    if (sizes.has(cid)) continue;
    const size = await dagSize(ctx.upstream, cid, 'recursive', signal);
    sizes.set(cid, size);
    const own = await ctx.pins.get(key, cid);
    extra += own?.type === 'recursive' ? 0 : Math.max(0, size - (own?.size ?? 0));
  }
  if (room.used + extra > room.limit) {
    throw new IpfsCommandError(413, storedLimitMessage(room.used, room.limit, extra), 1);
  }
  return sizes;
}

/**
 * Counts a storing command's uploaded bytes for `key` in the route's upload ledger: a chunk is
 * admitted while what the key stored when the command started, plus everything its uploads
 * forwarded since, stays within the limit. Once the exchange closed, the bytes are recorded as
 * unpinned less what the command's pins keep, and leave the ledger. A failure to record is logged
 * (the answer is gone by then).
 */
function trackUpload(ctx: IpfsCommandContext, key: string, res: ServerResponse) {
  const tracker = ctx.uploads.open(key);
  let bytes = 0;
  let covered: () => number = () => 0;
  res.once('close', () => {
    const unpinned = Math.max(0, bytes - covered());
    ctx.pins
      .addUnpinned(key, unpinned)
      .catch((err: unknown) =>
        ctx.log?.error('ipfs: could not record unpinned bytes', {
          key,
          bytes: unpinned,
          error: (err as Error).message,
        }),
      )
      .finally(() => tracker.close());
  });
  return {
    pendingAtOpen: tracker.pendingAtOpen,
    /** Counts `n` more bytes when they fit (`used`: what the key stored when the command started). */
    admit(n: number, used: number, limit: number): boolean {
      if (used + tracker.forwardedSinceOpen() + n > limit) return false;
      bytes += n;
      tracker.add(n);
      return true;
    },
    coveredBy(f: () => number) {
      covered = f;
    },
  };
}
