import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalOptions } from './canonicalOptions.js';
import { createMultipartNameGuard } from './createMultipartNameGuard.js';
import { createPinRecorder } from './createPinRecorder.js';
import { dagSize } from './dagSize.js';
import type { IpfsCommandContext } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { pinAddDirectForKey } from './pinAddDirectForKey.js';
import { pinLsForKey } from './pinLsForKey.js';
import { pinRmForKey } from './pinRmForKey.js';
import { pinUpdateForKey } from './pinUpdateForKey.js';
import { proxyToUpstream } from './proxyToUpstream.js';
import { resolveIpfsCommand } from './resolveIpfsCommand.js';
import { type ObjectCommandName, runObjectCommand } from './runObjectCommand.js';
import { unnormalisedPathProblem } from './unnormalisedPathProblem.js';
import { discardRequestBody, writeIpfsError, writeIpfsText } from './writeIpfsError.js';

const API = '/api/v0/';

/** Commands that add to what a key stores: refused once the key reached its quota. */
const GROWS_STORAGE = new Set(['pin/add', 'pin/update']);

/**
 * Everything the IPFS route does once a request's key is authenticated (the CORS preflight,
 * which needs no key, is answered before): POST only (405), the path must read as
 * it normalises (400 otherwise), then the command (404 unknown, 403 outside `ipfs.allow`),
 * size and stored-bytes limits (413), file-name checks on `add` (400), and the command itself:
 * pin/ls, pin/rm and pin/update over the key's own pins, object/* by the gateway, the rest
 * proxied to the upstream under the resolved command path (never the raw one), recording the
 * pins the key makes. Errors are thrown only before the answer started (`IpfsCommandError`, or
 * `UpstreamCallError` for an unreachable upstream): the caller writes them.
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
  const stores = command.spec.storesBytes && params.get('only-hash') !== 'true';
  let used = 0;
  if (stores || GROWS_STORAGE.has(command.name)) {
    used = await ctx.pins.storedBytes(key);
    if (used >= limits.maxStoredBytesPerKey || (stores && used + declared > limits.maxStoredBytesPerKey)) {
      return writeIpfsError(req, res, 413, storedLimitMessage(used, limits.maxStoredBytesPerKey), 1);
    }
  }

  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const directPinAdd = command.name === 'pin/add' && params.get('recursive') === 'false';
  switch (command.name) {
    case 'pin/add':
      if (directPinAdd) discardRequestBody(req);
      break;
    case 'pin/ls':
    case 'pin/rm':
    case 'pin/update':
      discardRequestBody(req);
  }
  switch (command.name) {
    case 'pin/ls':
      return pinLsForKey(ctx, key, params, res, controller.signal);
    case 'pin/rm':
      return pinRmForKey(ctx, key, params, res, controller.signal);
    case 'pin/update':
      return pinUpdateForKey(ctx, key, params, res, controller.signal);
    case 'pin/add':
      if (directPinAdd) return pinAddDirectForKey(ctx, key, params, res, controller.signal);
  }
  if (command.spec.servedBy === 'gateway') {
    await runObjectCommand(command.name as ObjectCommandName, req, res, upstream, params, {
      maxRequestBytes: limits.maxRequestBytes,
      beforeStore: (bytes) => {
        if (used + bytes > limits.maxStoredBytesPerKey) {
          throw new IpfsCommandError(413, storedLimitMessage(used, limits.maxStoredBytesPerKey), 1);
        }
      },
      onPinned: async (cid) => {
        await ctx.pins.add(key, [{ cid, type: 'recursive', size: await dagSize(upstream, cid, 'recursive') }]);
      },
    });
    return;
  }
  const recorder = createPinRecorder(ctx, key, command.name, params);
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
            remainingBytes: limits.maxStoredBytesPerKey - used,
            limitMessage: storedLimitMessage(used, limits.maxStoredBytesPerKey),
          },
        }
      : {}),
    ...(guard ? { inspectBody: (chunk: Buffer) => guard.inspect(chunk), holdAnswerUntilBodyEnd: true } : {}),
    ...(recorder ? { observe: recorder.observe } : {}),
  });
}

function storedLimitMessage(used: number, limit: number): string {
  return `storage limit reached: this API key has stored ${used} of ${limit} bytes allowed`;
}
