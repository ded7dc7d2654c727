import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';
import type { LimitSettings } from '../config/types.js';
import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';
import { ipfsCommands } from '../ipfs/ipfsCommands.js';
import { IPFS_PREFLIGHT_HEADERS } from '../ipfs/ipfsCors.js';
import { resolveIpfsCommand } from '../ipfs/resolveIpfsCommand.js';
import { writeIpfsText } from '../ipfs/writeIpfsError.js';
import type { Logger } from '../log/createLogger.js';
import type { Credentials } from '../pipeline/RequestContext.js';
import type { RequestPath } from '../pipeline/requestPath.js';
import { writeKuboError } from '../wire/writeKuboError.js';
import { createRequestContext } from './createRequestContext.js';
import { clientSignal } from './clientSignal.js';
import { readAuthorizationHeaders } from './readAuthorizationHeaders.js';

const API = '/api/v0/';

/**
 * `POST {ipfs_url}/api/v0/<command>` through the same request path as JSON-RPC: Kubo's
 * transport answers first (404 text outside `/api/v0/`, CORS preflight without credentials,
 * 405 for other methods), then authenticate (HTTP basic `<API_KEY>:<API_KEY_SECRET>`, plus the
 * key's JWT when it requires one: `X-Nodegate-JWT`, or `Authorization: Bearer` with the basic
 * credentials in `X-Nodegate-Authorization`), restrictions (origin, user agent, the command
 * against the key's method allowlist), limits (the command's credits), one of the key's slots
 * (its concurrency cap, shared with its JSON-RPC calls, held until the answer ends), the IPFS route itself
 * (pins, quota, proxy; answers of content paced and bounded by the plan's served bytes), and
 * record usage with the bytes that crossed the connection, the credits of the served MiB, and
 * Kubo's own status for a failure. Refusals are written in Kubo's error shape.
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
  const credentials = ipfsCredentials(req.headers);
  if (credentials instanceof GatewayError) return writeKuboError(req, res, credentials);
  const ctx = createRequestContext(req, {
    transport: 'ipfs',
    network: 'ipfs',
    credentials,
    timeoutMs: deps.limits.requestTimeoutMs,
    signal: clientSignal(req.socket),
    log: deps.log,
  });
  const command = resolveIpfsCommand(commandPath.slice(API.length));
  const name = command?.name ?? '(unknown)';
  // an unknown command is charged as an invalid call (then answered 404 by the route)
  let charged = 0;
  try {
    // admit records its own refusals (origin, user agent, a key held over its limits): one row
    await deps.path.admit(ctx);
  } catch (err) {
    return writeKuboError(req, res, err);
  }
  try {
    charged = await deps.path.admitCommand(ctx, command?.name, command ? ipfsCommands[command.name].credits : 0);
  } catch (err) {
    deps.path.recordUsage(ctx, usageOf(name, err instanceof GatewayError ? err.httpStatus : 500, err, 0, 0, 0));
    return writeKuboError(req, res, err);
  }
  let release: () => void;
  try {
    release = await deps.path.holdSlot(ctx);
  } catch (err) {
    deps.path.recordUsage(ctx, usageOf(name, err instanceof GatewayError ? err.httpStatus : 499, err, charged, 0, 0));
    return writeKuboError(req, res, err);
  }
  if (res.destroyed) {
    // the client left while the command waited for its slot: nothing to answer, nothing held
    release();
    return deps.path.recordUsage(ctx, usageOf(name, 499, CLIENT_GONE, charged, 0, 0));
  }
  const socket = req.socket;
  const readBefore = socket.bytesRead;
  const writtenBefore = socket.bytesWritten;
  const tenant = ctx.key!;
  const plan = tenant.plan;
  const served = deps.route.serve(tenant.record.key, req, res, rest, {
    bytesPerRequest: plan.ipfsServedBytesPerRequest ?? UNBOUNDED,
    bytesPerDay: plan.ipfsServedBytesPerDay ?? UNBOUNDED,
    bytesPerSecond: plan.ipfsServedBytesPerSecond ?? UNBOUNDED,
    credits: tenant.limits,
  });
  res.once('close', () => {
    release();
    const status = res.statusCode;
    const stopped = served.stoppedBy;
    // an answer a served-bytes limit refused or cut is recorded as that refusal (usage shows the
    // limit); any other failure with the status the client got (usage keeps -status for IPFS)
    const error =
      stopped !== undefined
        ? new GatewayError(stopped.status === 429 ? 'RATE_LIMITED' : 'INVALID_REQUEST', stopped.message, {
            httpStatus: stopped.status,
            ...(stopped.refusal === undefined ? {} : { refusal: stopped.refusal }),
          })
        : status >= 400
          ? new GatewayError('INTERNAL_ERROR', `IPFS answered ${status}`, { httpStatus: status })
          : undefined;
    deps.path.recordUsage(
      ctx,
      usageOf(
        name,
        status,
        error,
        charged + served.credits,
        socket.bytesRead - readBefore,
        socket.bytesWritten - writtenBefore,
      ),
    );
  });
}

/** What usage records for a command whose client left before it was answered. */
const CLIENT_GONE = new GatewayError('INVALID_REQUEST', 'the client went away', { httpStatus: 499 });

/** A plan without a served-bytes field: no bound (the limiter's counters stay integers). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * The credentials of an IPFS request. The key and its secret always travel as HTTP basic auth;
 * a key that requires a JWT sends it too, as every transport takes it (readAuthorizationHeaders):
 * - `Authorization: Basic base64(KEY:SECRET)` and `X-Nodegate-JWT: <token>`, or
 * - `Authorization: Bearer <token>` and `X-Nodegate-Authorization: Basic base64(KEY:SECRET)`.
 * Malformed headers, a token sent twice, or a Bearer token without the basic credentials give a
 * 401 GatewayError (returned, not thrown).
 */
function ipfsCredentials(headers: IncomingHttpHeaders): Credentials | GatewayError {
  const auth = readAuthorizationHeaders(headers);
  if ('problem' in auth) return new GatewayError('UNAUTHORIZED', `invalid credentials: ${auth.problem}`);
  if (auth.bearer !== undefined && auth.user === undefined && headers.authorization?.match(/^bearer /i)) {
    return new GatewayError(
      'UNAUTHORIZED',
      'invalid credentials: with Authorization: Bearer <JWT>, send the key as X-Nodegate-Authorization: Basic base64(<API_KEY>:<API_KEY_SECRET>)',
    );
  }
  return { key: auth.user ?? '', secret: auth.secret, bearer: auth.bearer };
}

function usageOf(method: string, status: number, error: unknown, credits: number, bytesIn: number, bytesOut: number) {
  return { method, status, error, credits, upstream: undefined, bytesIn, bytesOut };
}
