import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/types.js';
import { GatewayError } from '../errors/GatewayError.js';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';
import type { IpfsGateways } from '../ipfsGateway/createIpfsGateways.js';
import type { Limiter } from '../limits/Limiter.js';
import type { Logger } from '../log/createLogger.js';
import type { UsageRecorderHealth } from '../usage/createUsageRecorder.js';
import type { Network } from '../network/createNetwork.js';
import { createNetworkResolver } from '../network/createNetworkResolver.js';
import type { RequestPath } from '../pipeline/requestPath.js';
import { createSubscriptions, type Subscriptions } from '../subscriptions/createSubscriptions.js';
import { answerClientError } from '../wire/answerClientError.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from '../wire/corsHeaders.js';
import { refuseUpgrade } from '../wire/refuseUpgrade.js';
import { writeKuboError } from '../wire/writeKuboError.js';
import { writeRpcError } from '../wire/writeRpcError.js';
import { healthReport } from './healthReport.js';
import { normalizeRequestPath } from './normalizeRequestPath.js';
import { redactPath } from './redactPath.js';
import { resolveRoute } from './resolveRoute.js';
import { serveIpfs } from './serveIpfs.js';
import { serveIpfsGateway } from './serveIpfsGateway.js';
import { writeGatewayError } from '../wire/writeGatewayError.js';
import { serveJsonRpc } from './serveJsonRpc.js';
import { createWebSocketEdge } from './ws/serveWebSocket.js';

/** What the app is built from: every dependency is passed in (the composition root builds them). */
export interface AppDeps {
  readonly networks: readonly Network[];
  readonly path: RequestPath;
  readonly limiter: Limiter;
  readonly log: Logger;
  /** WebSocket subscriptions (shared upstream subscriptions, stats); built with defaults when absent. */
  readonly subscriptions?: Subscriptions | undefined;
  /** The IPFS API, when configured. */
  readonly ipfs?: IpfsRoute | undefined;
  /** Dedicated IPFS gateways (`/ipfs-gateway/<name>/…`, `<name>.ipfs.<domain>`), when configured. */
  readonly ipfsGateways?: IpfsGateways | undefined;
  /** `GET /metrics` (Prometheus), when it is served on this listener (see `src/metrics/createMetricsHandler.ts`). */
  readonly metrics?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** Shared dependencies (Redis, the database) whose health `/health` reports under `components`. */
  readonly dependencies?: readonly DependencyHealth[] | undefined;
  /** How usage flushes are going (`/health`'s `usage`). */
  readonly usageHealth?: (() => UsageRecorderHealth) | undefined;
  /** In a cluster (`nodegate start --workers N`): this worker's number, which `/health` reports as `worker`. */
  readonly worker?: number | undefined;
  /** Registers the gateway's own pages and APIs (admin API, dashboard) on the Fastify app. */
  readonly register?: (app: FastifyInstance) => Promise<void>;
  /**
   * The certificate and key (PEM) when `tls` is configured: the listener is then an
   * `https.Server` (HTTPS and WSS for everything it serves; `server.setSecureContext` replaces
   * them on SIGHUP, see `src/edge/tls/createTlsReloader.ts`).
   */
  readonly tls?: { readonly cert: string; readonly key: string } | undefined;
}

/**
 * Builds the gateway's server: one node:http server (node:https with `deps.tls`) whose timeouts hold slow clients to account
 * (headers within `headersTimeoutMs`, checked every second; JSON-RPC bodies within
 * `bodyTimeoutMs`), whose own parse errors (400/431/408) answer in the JSON-RPC shape, and whose
 * requests are routed on their normalised path: JSON-RPC and WebSocket to the request path,
 * the IPFS API to its route, and the gateway's own pages and APIs (`/health`, `/admin/…`) to
 * Fastify.
 *
 * @example
 * const app = await buildApp(config, { networks, path, limiter, log });
 * await app.listen({ host: '127.0.0.1', port: 0 });
 */
export async function buildApp(config: GatewayConfig, deps: AppDeps): Promise<FastifyInstance> {
  const { limits } = config;
  const log = deps.log;
  const resolve = createNetworkResolver(deps.networks);
  const ipfs = deps.ipfs;
  const matchIpfs = ipfs ? (host: string | undefined, path: string) => ipfs.match(host, path) : undefined;
  const serveMetrics = deps.metrics;
  const subscriptions = deps.subscriptions ?? createSubscriptions({ log });
  const ws = createWebSocketEdge({ path: deps.path, limiter: deps.limiter, limits, log, subscriptions });
  let appHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const edge = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    let target: ReturnType<typeof normalizeRequestPath>;
    try {
      target = normalizeRequestPath(raw);
    } catch (err) {
      if (matchIpfs?.(req.headers.host, raw) !== undefined) return writeKuboError(req, res, err);
      return writeRpcError(res, err, { headers: { connection: 'close' } });
    }
    if (serveMetrics !== undefined && target.path === '/metrics') return serveMetrics(req, res);
    // dedicated IPFS gateways: their hosts and their path prefix are theirs alone
    const gatewayMatch = deps.ipfsGateways?.match(req.headers.host, target.path);
    if (gatewayMatch !== undefined) {
      serveIpfsGateway(req, res, gatewayMatch, target.query, {
        gateways: deps.ipfsGateways!,
        path: deps.path,
        limits,
        log,
      }).catch((err: unknown) => {
        log.error('gateway request failed', { error: (err as Error).message });
        writeGatewayError(req, res, new GatewayError('INTERNAL_ERROR', 'internal error', { httpStatus: 500 }));
      });
      return;
    }
    const route = resolveRoute(resolve, matchIpfs, req.headers.host, target.path);
    switch (route.kind) {
      case 'rpc':
        serveJsonRpc(req, res, route.network, route.key, { path: deps.path, limits, log }).catch((err: unknown) => {
          log.error('request failed', { error: (err as Error).message });
          writeRpcError(res, new GatewayError('INTERNAL_ERROR', 'internal error'), { status: 500 });
        });
        return;
      case 'ipfs':
        serveIpfs(req, res, `${route.rest}${target.query}`, { route: ipfs!, path: deps.path, limits, log }).catch(
          (err: unknown) => {
            log.error('ipfs request failed', { error: (err as Error).message });
            writeKuboError(req, res, new GatewayError('INTERNAL_ERROR', 'internal error', { httpStatus: 500 }));
          },
        );
        return;
      case 'app':
        return appHandler!(req, res);
      case 'ws':
        if (req.method === 'OPTIONS') return void res.writeHead(204, PREFLIGHT_HEADERS).end();
        return writeRpcError(res, new GatewayError('INVALID_REQUEST', 'this endpoint expects a WebSocket upgrade'), {
          status: 400,
        });
      case 'network-not-found':
        if (req.method === 'OPTIONS') return void res.writeHead(204, PREFLIGHT_HEADERS).end();
        return writeRpcError(
          res,
          new GatewayError(
            'NETWORK_NOT_FOUND',
            'network not found: no network matches this Host header or path prefix',
          ),
        );
      case 'not-found':
        if (req.method === 'OPTIONS') return void res.writeHead(204, PREFLIGHT_HEADERS).end();
        return writeRpcError(res, new GatewayError('NOT_FOUND', `not found: ${req.method} ${redactPath(target.path)}`));
    }
  };

  const app = Fastify({
    logger: false,
    // X-Forwarded-For/-Proto are believed only from the configured proxies (request.ip, request.protocol)
    trustProxy: config.trustedProxies.length > 0 ? [...config.trustedProxies] : false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    return503OnClosing: true,
    serverFactory: (handler) => {
      appHandler = handler;
      const options: ServerOptions = {
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        headersTimeout: limits.headersTimeoutMs,
        // bodies are timed per route (JSON-RPC: bodyTimeoutMs; IPFS uploads: idle timeout)
        requestTimeout: 0,
        connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
      };
      const server: Server = deps.tls
        ? // a TLS handshake is held to the same deadline as the headers that follow it
          (createHttpsServer(
            { ...options, cert: deps.tls.cert, key: deps.tls.key, handshakeTimeout: limits.headersTimeoutMs },
            edge,
          ) as unknown as Server)
        : createServer(options, edge);
      server.on('clientError', answerClientError);
      server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
        let target: ReturnType<typeof normalizeRequestPath>;
        try {
          target = normalizeRequestPath(req.url ?? '/');
        } catch (err) {
          return refuseUpgrade(socket, err);
        }
        const route = resolveRoute(resolve, matchIpfs, req.headers.host, target.path);
        if (route.kind === 'ws') return ws.upgrade(req, socket, head, route.network, route.key);
        refuseUpgrade(
          socket,
          route.kind === 'network-not-found'
            ? new GatewayError(
                'NETWORK_NOT_FOUND',
                'network not found: no network matches this Host header or path prefix',
              )
            : new GatewayError('NOT_FOUND', 'not found: WebSocket endpoints are {ws_url}/ws/v3/<API_KEY>'),
        );
      });
      return server;
    },
  });
  app.addHook('onRequest', async (_req, reply) => {
    reply.headers(CORS_HEADERS);
  });
  app.addHook('preClose', async () => {
    await ws.close();
    subscriptions.close();
  });
  app.addHook('onClose', async () => {
    await ipfs?.close?.();
    deps.ipfsGateways?.close();
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/health',
    handler: async (_req, reply) => {
      const report = healthReport(deps.networks, ipfs ? [ipfs] : [], deps.dependencies, deps.usageHealth);
      const body = deps.worker === undefined ? report.body : { ...report.body, worker: deps.worker };
      return reply.code(report.ok ? 200 : 503).send(body);
    },
  });
  await deps.register?.(app);
  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .type('application/json')
      .send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32004, message: `not found: ${req.method} ${redactPath(req.url.split('?')[0] ?? '')}` },
      });
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500)
      log.error('request failed', { method: req.method, path: redactPath(req.url), error: err.message });
    reply
      .code(status)
      .type('application/json')
      .send({
        error: {
          code: status === 500 ? 'internal' : 'bad_request',
          message: status === 500 ? 'internal error' : err.message,
        },
      });
  });
  return app;
}
