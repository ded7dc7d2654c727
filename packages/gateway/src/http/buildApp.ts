import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/types.js';
import { GatewayError } from '../errors/GatewayError.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import type { Network } from '../network/createNetwork.js';
import { createNetworkResolver } from '../network/createNetworkResolver.js';
import { createLogger, type Logger } from '../log/createLogger.js';
import { handleRpcBody } from '../rpc/handleRpcBody.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.js';
import { errorBody } from './errorBody.js';
import { healthReport } from './healthReport.js';
import { unauthorized } from './unauthorized.js';
import { type Route, routeRequest } from './routeRequest.js';
import type { StreamingRoute } from './StreamingRoute.js';
import { attachWebSocket } from './ws/attachWebSocket.js';

/** What the app is built from: every dependency is passed in (the composition root builds them). */
export interface AppDeps {
  readonly networks: readonly Network[];
  readonly keys: KeyAuthenticator;
  readonly log?: Logger;
  /** Families served on raw streams ahead of Fastify (the IPFS API). */
  readonly streaming?: readonly StreamingRoute[];
}

declare module 'fastify' {
  interface FastifyRequest {
    route_: Route | null;
  }
}

const ALLOW = 'POST, OPTIONS';

/**
 * Builds the gateway's HTTP/WebSocket app: routing by Host or path prefix, CORS, key
 * authentication before the body is read, JSON-RPC over HTTP and WebSocket, /health.
 *
 * @example
 * const app = await buildApp(config, { networks, keys });
 * await app.listen({ host: '127.0.0.1', port: 0 });
 */
export async function buildApp(config: GatewayConfig, deps: AppDeps): Promise<FastifyInstance> {
  const log = deps.log ?? createLogger('warn');
  const app = Fastify({
    // No per-request logger: errors go to `log` below.
    logger: false,
    bodyLimit: config.limits.maxBodyBytes,
    forceCloseConnections: true,
    return503OnClosing: true,
    // Streaming routes (IPFS) take their requests before Fastify parses anything.
    serverFactory: (handler) =>
      createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
        for (const route of deps.streaming ?? []) {
          const rest = route.match(req.headers.host, req.url ?? '/');
          if (rest !== undefined) return route.handle(req, res, rest);
        }
        handler(req, res);
      }),
  });
  app.addHook('onClose', async () => {
    await Promise.all((deps.streaming ?? []).map((r) => r.close?.()));
  });
  const resolve = createNetworkResolver(deps.networks);
  const maxBatch = config.limits.maxBatch;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/json-rpc'], { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );

  app.decorateRequest('route_', null);

  app.addHook('onRequest', async (req, reply) => {
    reply.headers(CORS_HEADERS);
    if (req.method === 'OPTIONS') {
      return reply.code(204).headers(PREFLIGHT_HEADERS).send();
    }
    const route = routeRequest(resolve, req.headers.host, req.url);
    req.route_ = route;
    switch (route.kind) {
      case 'health':
        if (req.method !== 'GET' && req.method !== 'HEAD')
          return sendError(reply, methodNotAllowed('GET, OPTIONS'), 'GET, OPTIONS');
        return;
      case 'network-not-found':
        return sendError(
          reply,
          new GatewayError(
            'NETWORK_NOT_FOUND',
            'network not found: no network matches this Host header or path prefix',
          ),
        );
      case 'not-found':
        return sendError(reply, new GatewayError('NOT_FOUND', `not found: ${req.method} ${redactUrl(req.url)}`));
      case 'ws':
        return sendError(
          reply,
          new GatewayError('INVALID_REQUEST', 'this endpoint expects a WebSocket upgrade'),
          undefined,
          400,
        );
      case 'rpc': {
        if (req.method !== 'POST') return sendError(reply, methodNotAllowed(ALLOW), ALLOW);
        const key = await deps.keys.authenticate(route.key);
        if (!key) return sendError(reply, unauthorized(route.key));
        return;
      }
    }
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: '/*',
    handler: async (req, reply) => {
      const route = req.route_;
      if (route?.kind === 'health') {
        const report = await healthReport(deps.networks, 2_000, deps.streaming);
        return reply.code(report.ok ? 200 : 503).send(report.body);
      }
      if (route?.kind !== 'rpc') throw new Error('unreachable route');
      if (typeof req.body !== 'string') {
        return sendError(reply, unsupportedMediaType());
      }
      const result = await handleRpcBody(
        route.network,
        req.body,
        { transport: 'http', dev: route.network.settings.dev },
        maxBatch,
      );
      if (result.body === undefined) return reply.code(204).send();
      return reply.code(result.status).type('application/json').send(result.body);
    },
  });

  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        new GatewayError(
          'PAYLOAD_TOO_LARGE',
          `request body too large: the limit is ${config.limits.maxBodyBytes} bytes`,
        ),
      );
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, unsupportedMediaType());
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendError(reply, new GatewayError('PARSE_ERROR', 'parse error: the body is empty'), undefined, 200);
    }
    log.error('request failed', { method: req.method, url: redactUrl(req.url), error: err.message, code: err.code });
    return sendError(reply, new GatewayError('INTERNAL_ERROR', 'internal error'), undefined, 500);
  });

  attachWebSocket(app, { resolve, keys: deps.keys, maxPayload: config.limits.maxBodyBytes, maxBatch });
  return app;
}

function sendError(
  reply: import('fastify').FastifyReply,
  err: GatewayError,
  allow?: string,
  status?: number,
): import('fastify').FastifyReply {
  if (allow) reply.header('allow', allow);
  return reply
    .code(status ?? err.httpStatus)
    .type('application/json')
    .send(errorBody(err));
}

function methodNotAllowed(allow: string): GatewayError {
  return new GatewayError('METHOD_NOT_ALLOWED', `method not allowed: use ${allow.split(',')[0]}`);
}

function unsupportedMediaType(): GatewayError {
  return new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type: send Content-Type: application/json');
}

/** Replaces the key segment of `/v3/<key>` and `/ws/v3/<key>` with its first four characters. */
export function redactUrl(url: string): string {
  return url.replace(/(\/v3\/)([^/?]{4})[^/?]*/, '$1$2…');
}
