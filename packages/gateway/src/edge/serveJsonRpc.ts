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
const ALLOW_ORIGIN = 'access-control-allow-origin';
const EXPOSE_HEADERS = 'access-control-expose-headers';

/**
 * `POST {base_url}/v3/<KEY>`: admits the request (key, secret/JWT, origin and user agent) before
 * its body is read, reads the body (bounded in size and time), runs it through the request
 * path, and writes the answer (a cache hit's prepared bytes as they are). A client that goes away
 * aborts its upstream calls.
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
      credentials: credentialsOf(pathKey, req.headers),
      timeoutMs: deps.limits.requestTimeoutMs,
      signal,
      log: deps.log,
    });
    // admitted at once (a key decided lately): nothing awaited
    const admitting = deps.path.admit(ctx);
    if (admitting !== undefined) await admitting;
    // the parser pushes the body of the head's packet once this event returns: one microtask
    // lets it, so the body is read from the stream's buffer (no listeners, timer or promise)
    else if (!req.complete) await undefined;
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
    // a body that has arrived whole comes back as it is; only one still on its way is awaited
    const read = readJsonBody(req, { maxBytes: deps.limits.maxBodyBytes, timeoutMs: deps.limits.bodyTimeoutMs });
    body = typeof read === 'string' ? read : await read;
  } catch (err) {
    return refuse(res, err, ctx.requestId, deps.limits.maxBodyBytes);
  }
  if (body === undefined) return; // the client went away
  if (body.trim() === '') {
    return writeRpcError(res, new GatewayError('PARSE_ERROR', 'parse error: the body is empty'), {
      requestId: ctx.requestId,
    });
  }
  const reply = await deps.path.answerHttp(ctx, network, body);
  if (signal.aborted) return;
  const out = reply.body;
  if (out === undefined) {
    res.writeHead(204, { ...CORS_HEADERS, 'x-request-id': ctx.requestId }).end();
    return;
  }
  const prepared = typeof out !== 'string';
  const length = prepared ? Buffer.byteLength(out.head) + out.result.byteLength + 1 : Buffer.byteLength(out);
  // the flat [name, value, …] form: no header object built and walked per answer
  const headers = [
    ALLOW_ORIGIN,
    CORS_HEADERS[ALLOW_ORIGIN],
    EXPOSE_HEADERS,
    CORS_HEADERS[EXPOSE_HEADERS],
    'x-request-id',
    ctx.requestId,
    'content-type',
    'application/json',
    'content-length',
    String(length),
  ];
  const extra = reply.headers;
  for (const name in extra) headers.push(name, extra[name]!);
  res.writeHead(reply.status, headers);
  if (!prepared) {
    res.end(out);
    return;
  }
  // a cache hit's bytes as they are, after the id's head: one write for the whole answer
  res.cork();
  res.write(out.head);
  res.write(out.result);
  res.end('}');
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
