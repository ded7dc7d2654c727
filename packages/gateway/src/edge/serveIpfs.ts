import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';
import type { LimitSettings } from '../config/types.js';
import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';
import { ipfsCommands } from '../ipfs/ipfsCommands.js';
import { IPFS_PREFLIGHT_HEADERS } from '../ipfs/ipfsCors.js';
import { resolveIpfsCommand } from '../ipfs/resolveIpfsCommand.js';
import { writeIpfsText } from '../ipfs/writeIpfsError.js';
import type { Logger } from '../log/createLogger.js';
import type { RequestPath } from '../pipeline/requestPath.js';
import { writeKuboError } from '../wire/writeKuboError.js';
import { createRequestContext } from './createRequestContext.js';
import { clientSignal } from './clientSignal.js';
import { readCredentials } from './readCredentials.js';

const API = '/api/v0/';

/**
 * `POST {ipfs_url}/api/v0/<command>` through the same request path as JSON-RPC: Kubo's
 * transport answers first (404 text outside `/api/v0/`, CORS preflight without credentials,
 * 405 for other methods), then authenticate (HTTP basic `<API_KEY>:<API_KEY_SECRET>`),
 * restrictions (origin, user agent, the command against the key's method allowlist), limits
 * (the command's credits), the IPFS route itself (pins, quota, proxy), and record usage with
 * the bytes that crossed the connection. Refusals are written in Kubo's error shape.
 *
 * @example
 * serveIpfs(req, res, '/api/v0/cat?arg=Qm…', { route, path, limits, log });
 */
export async function serveIpfs(
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  deps: { route: IpfsRoute; path: RequestPath; limits: LimitSettings; log: Logger },
): Promise<void> {
  const q = rest.indexOf('?');
  const commandPath = q < 0 ? rest : rest.slice(0, q);
  if (!commandPath.startsWith(API)) return writeIpfsText(req, res, 404, '404 page not found');
  if (req.method === 'OPTIONS') {
    res.writeHead(200, { ...IPFS_PREFLIGHT_HEADERS, 'content-length': '0' }).end();
    return;
  }
  if (req.method !== 'POST') {
    return writeIpfsText(req, res, 405, '405 - Method Not Allowed', { allow: 'OPTIONS, POST' });
  }
  const auth = readCredentials(req.headers.authorization);
  if (auth.malformed) {
    return writeKuboError(
      req,
      res,
      new GatewayError('UNAUTHORIZED', 'invalid credentials: unknown or revoked API key, or wrong secret'),
    );
  }
  const ctx = createRequestContext(req, {
    transport: 'ipfs',
    network: 'ipfs',
    credentials: { key: auth.user ?? '', secret: auth.secret, bearer: auth.bearer },
    timeoutMs: deps.limits.requestTimeoutMs,
    signal: clientSignal(req.socket),
    log: deps.log,
  });
  const command = resolveIpfsCommand(commandPath.slice(API.length));
  const name = command?.name ?? '(unknown)';
  try {
    await deps.path.admit(ctx);
    if (command !== undefined) await deps.path.admitCommand(ctx, name, ipfsCommands[command.name].credits);
  } catch (err) {
    if (!(err instanceof GatewayError) || err.httpStatus !== 401) {
      deps.path.recordUsage(ctx, usageOf(name, err instanceof GatewayError ? err.httpStatus : 500, err, 0, 0, 0));
    }
    return writeKuboError(req, res, err);
  }
  const socket = req.socket;
  const readBefore = socket.bytesRead;
  const writtenBefore = socket.bytesWritten;
  res.once('close', () => {
    const status = res.statusCode;
    const failed = status >= 400 || res.getHeader('x-stream-error') !== undefined;
    deps.path.recordUsage(
      ctx,
      usageOf(
        name,
        status,
        failed ? new GatewayError('INTERNAL_ERROR', `IPFS answered ${status}`, { httpStatus: status }) : undefined,
        command ? ipfsCommands[command.name].credits : 0,
        socket.bytesRead - readBefore,
        socket.bytesWritten - writtenBefore,
      ),
    );
  });
  deps.route.serve(ctx.key!.record.key, req, res, rest);
}

function usageOf(method: string, status: number, error: unknown, credits: number, bytesIn: number, bytesOut: number) {
  return { method, status, error, credits, upstream: undefined, bytesIn, bytesOut };
}
