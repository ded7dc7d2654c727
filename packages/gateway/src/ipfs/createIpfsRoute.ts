import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { IpfsSettings } from '../config/types.js';
import { matchHostOrPrefix, type StreamingRoute } from '../http/StreamingRoute.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import type { KeyStore } from '../store/KeyStore.js';
import { authenticateBasic } from './authenticateBasic.js';
import { callUpstream, UpstreamCallError } from './callUpstream.js';
import type { IpfsCommandContext, IpfsLimits } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { IPFS_PREFLIGHT_HEADERS } from './ipfsCors.js';
import type { PinStore } from './pins/PinStore.js';
import { serveIpfsCommand } from './serveIpfsCommand.js';
import { writeIpfsError, writeIpfsText } from './writeIpfsError.js';

export type { IpfsLimits } from './IpfsCommandContext.js';

/** What the IPFS route is built from. */
export interface IpfsRouteDeps {
  readonly settings: IpfsSettings;
  /** The Kubo-compatible upstream's base URL (`http://host:port`; commands under `/api/v0/`). */
  readonly upstreamUrl: string;
  readonly keys: KeyAuthenticator;
  /** No longer read by the route (stored bytes come from `pins`); accepted so callers keep compiling. */
  readonly store?: KeyStore;
  /**
   * Which key pins what (durable: `createSqlPinStore` over the gateway's database). Without it
   * the route keeps pins in an in-memory PGlite database, lost on restart: pass one in production.
   */
  readonly pins?: PinStore | Promise<PinStore>;
  readonly limits?: Partial<IpfsLimits>;
}

/** The IPFS route: a streaming route, plus its post-authentication entry point and usage. */
export interface IpfsRoute extends StreamingRoute {
  /**
   * Serves one request whose key is already authenticated (everything after authentication:
   * path check, allowlist, limits, pins, proxy), writing any error as Kubo JSON.
   */
  serve(key: string, req: IncomingMessage, res: ServerResponse, rest: string): void;
  /** Bytes the key stores: the sum of its pins' sizes (the upload quota's measure). */
  storedBytes(key: string): Promise<number>;
}

const API = '/api/v0/';
const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Basic realm="nodegate IPFS"' };

/**
 * The gateway's IPFS HTTP API, `POST {ipfs_url}/api/v0/<command>`, as a streaming route (raw
 * request/response, ahead of Fastify): Kubo's transport rules (404 text, 405 with
 * `Allow: OPTIONS, POST`, CORS preflight), HTTP basic auth `<API_KEY>:<API_KEY_SECRET>` (401),
 * then {@link serveIpfsCommand} for the authenticated key (`route.serve` is that step alone).
 *
 * @example
 * const pins = await createSqlPinStore(query);
 * const route = createIpfsRoute({ settings: config.ipfs, upstreamUrl: 'http://127.0.0.1:5001', keys, pins });
 * const app = await buildApp(config, { networks, keys, streaming: [route] });
 * await route.storedBytes(key); // for usage reports
 */
export function createIpfsRoute(deps: IpfsRouteDeps): IpfsRoute {
  const { settings, keys } = deps;
  const url = new URL(deps.upstreamUrl);
  const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32, scheduling: 'lifo' as const };
  const upstream: IpfsUpstream = {
    url,
    agent: url.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions),
    headers: settings.upstream.headers ?? {},
    idleTimeoutMs: settings.upstream.timeoutMs,
  };
  const limits: IpfsLimits = {
    maxRequestBytes: deps.limits?.maxRequestBytes ?? settings.maxRequestBytes,
    maxStoredBytesPerKey: deps.limits?.maxStoredBytesPerKey ?? settings.maxStoredBytesPerKey,
  };
  let closeMemory: (() => Promise<void>) | undefined;
  let pinsReady: Promise<PinStore> | undefined;
  const pins = (): Promise<PinStore> => {
    pinsReady ??= deps.pins
      ? Promise.resolve(deps.pins)
      : openMemoryPinStore().then(({ store, close }) => {
          closeMemory = close;
          return store;
        });
    return pinsReady;
  };
  const base = {
    upstream,
    basePath: url.pathname.replace(/\/$/, ''),
    allowed: new Set<string>(settings.allow),
    limits,
    resetOnStreamError: settings.resetOnStreamError,
  };

  const fail = (req: IncomingMessage, res: ServerResponse) => (err: unknown) => {
    if (res.headersSent) {
      res.destroy();
    } else if (err instanceof IpfsCommandError) {
      writeIpfsError(req, res, err.status, err.message, err.code);
    } else if (err instanceof UpstreamCallError) {
      writeIpfsError(req, res, 502, 'upstream IPFS node unavailable', 0);
    } else {
      writeIpfsError(req, res, 500, 'internal error', 0);
    }
  };
  const serve = async (key: string, req: IncomingMessage, res: ServerResponse, rest: string) => {
    const ctx: IpfsCommandContext = { ...base, pins: await pins() };
    await serveIpfsCommand(key, req, res, rest, ctx);
  };

  async function handle(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const q = rest.indexOf('?');
    const path = q < 0 ? rest : rest.slice(0, q);
    if (!path.startsWith(API)) return writeIpfsText(req, res, 404, '404 page not found');
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { ...IPFS_PREFLIGHT_HEADERS, 'content-length': '0' });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      return writeIpfsText(req, res, 405, '405 - Method Not Allowed', { allow: 'OPTIONS, POST' });
    }
    const auth = await authenticateBasic(req.headers.authorization, keys);
    if (!auth.ok) {
      const message =
        auth.reason === 'missing'
          ? 'missing credentials: use HTTP basic auth with <API_KEY>:<API_KEY_SECRET>'
          : 'invalid credentials: unknown or revoked API key, or wrong secret';
      return writeIpfsError(req, res, 401, message, 1, UNAUTHORIZED_HEADERS);
    }
    await serve(auth.record.key, req, res, rest);
  }

  return {
    match: matchHostOrPrefix(settings.hosts, settings.pathPrefix),
    handle(req, res, rest) {
      handle(req, res, rest).catch(fail(req, res));
    },
    serve(key, req, res, rest) {
      serve(key, req, res, rest).catch(fail(req, res));
    },
    async storedBytes(key) {
      return (await pins()).storedBytes(key);
    },
    async probe(timeoutMs) {
      const healthy = await callUpstream(
        upstream,
        'version',
        {},
        { maxBytes: 65_536, signal: AbortSignal.timeout(timeoutMs) },
      ).then(
        (a) => a.status === 200,
        () => false,
      );
      return { name: 'ipfs', family: 'ipfs', upstreams: [{ name: settings.upstream.name, healthy }] };
    },
    async close() {
      upstream.agent.destroy();
      await closeMemory?.();
    },
  };
}

/** The fallback pin store: PGlite in memory (loaded only when no store was given). */
async function openMemoryPinStore(): Promise<{ store: PinStore; close: () => Promise<void> }> {
  const [{ PGlite }, { createSqlPinStore }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('./pins/createSqlPinStore.js'),
  ]);
  const db = new PGlite();
  const store = await createSqlPinStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as never);
  return { store, close: () => db.close() };
}
