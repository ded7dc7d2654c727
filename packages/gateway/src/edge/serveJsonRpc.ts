import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';
import type { LimitSettings } from '../config/types.js';
import type { Logger } from '../log/createLogger.js';
import type { Network } from '../network/createNetwork.js';
import type { RequestPath } from '../pipeline/requestPath.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from '../wire/corsHeaders.js';
import { writeRpcError } from '../wire/writeRpcError.js';
import { createRequestContext } from './createRequestContext.js';
import { credentialsOf } from './credentialsOf.js';
import { readJsonBody } from './readJsonBody.js';
import { clientSignal } from './clientSignal.js';

const JSON_TYPES = /^application\/(?:json|json-rpc)\s*(?:;|$)/i;
const ALLOW = 'POST, OPTIONS';
const CORS_HEADER_LIST = Object.entries(CORS_HEADERS).flat();

/**
 * `POST {base_url}/v3/<KEY>`: admits the request (key, secret/JWT, origin and user agent) before
 * its body is read, reads the body (bounded in size and time), runs it through the request
 * path, and writes the answer. A client that goes away aborts its upstream calls.
 *
 * @example
 * serveJsonRpc(req, res, network, key, { path, limits, log });
 */
export async function serveJsonRpc(
  req: IncomingMessage,
  res: ServerResponse,
  network: Network,
  pathKey: string,
  deps: { path: RequestPath; limits: LimitSettings; log: Logger },
): Promise<void> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, PREFLIGHT_HEADERS).end();
    return;
  }
  if (req.method !== 'POST') {
    return writeRpcError(res, new GatewayError('METHOD_NOT_ALLOWED', 'method not allowed: use POST'), {
      headers: { allow: ALLOW },
    });
  }
  const signal = clientSignal(req.socket);
  let ctx: ReturnType<typeof createRequestContext>;
  try {
    ctx = createRequestContext(req, {
      transport: 'http',
      network: network.settings.name,
      credentials: credentialsOf(pathKey, req.headers.authorization),
      timeoutMs: deps.limits.requestTimeoutMs,
      signal,
      log: deps.log,
    });
    await deps.path.admit(ctx);
  } catch (err) {
    return refuse(res, err, undefined, deps.limits.maxBodyBytes);
  }
  if (!JSON_TYPES.test(req.headers['content-type'] ?? '')) {
    return refuse(
      res,
      new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type: send Content-Type: application/json'),
      ctx.requestId,
      deps.limits.maxBodyBytes,
    );
  }
  let body: string | undefined;
  try {
    body = await readJsonBody(req, { maxBytes: deps.limits.maxBodyBytes, timeoutMs: deps.limits.bodyTimeoutMs });
  } catch (err) {
    return refuse(res, err, ctx.requestId, deps.limits.maxBodyBytes);
  }
  if (body === undefined) return; // the client went away
  if (body.trim() === '') {
    return writeRpcError(res, new GatewayError('PARSE_ERROR', 'parse error: the body is empty'), {
      requestId: ctx.requestId,
    });
  }
  const reply = await deps.path.answerRpc(ctx, network, body);
  if (signal.aborted) return;
  if (reply.body === undefined) {
    res.writeHead(204, { ...CORS_HEADERS, 'x-request-id': ctx.requestId }).end();
    return;
  }
  // the flat [name, value, …] form: no header object built and walked per answer
  const headers = [
    ...CORS_HEADER_LIST,
    'x-request-id',
    ctx.requestId,
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(reply.body)),
  ];
  for (const [name, value] of Object.entries(reply.headers)) headers.push(name, value);
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}

/**
 * Writes a whole-request refusal without reading the body: Node drops a small body that is
 * still coming and keeps the connection; a body larger than the limit, or of unknown length,
 * closes it instead of being read.
 */
function refuse(res: ServerResponse, err: unknown, requestId: string | undefined, maxBodyBytes: number): void {
  const req = res.req;
  const declared = req.headers['content-length'];
  const timedOut = err instanceof GatewayError && err.kind === 'REQUEST_TIMEOUT';
  const drop = !req.complete && (timedOut || declared === undefined || Number(declared) > maxBodyBytes);
  if (drop) res.once('finish', () => req.socket.destroy());
  writeRpcError(res, err, {
    ...(requestId ? { requestId } : {}),
    ...(drop ? { headers: { connection: 'close' } } : {}),
  });
}
