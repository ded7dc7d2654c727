import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { IpfsSettings } from '../config/types.js';
import { matchHostOrPrefix, type StreamingRoute } from '../http/StreamingRoute.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import type { KeyStore } from '../store/KeyStore.js';
import { authenticateBasic } from './authenticateBasic.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { callUpstream, UpstreamCallError } from './callUpstream.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { IPFS_PREFLIGHT_HEADERS } from './ipfsCors.js';
import { proxyToUpstream } from './proxyToUpstream.js';
import { resolveIpfsCommand } from './resolveIpfsCommand.js';
import { type ObjectCommandName, runObjectCommand } from './runObjectCommand.js';
import { writeIpfsError, writeIpfsText } from './writeIpfsError.js';

/** The usage counter that holds the bytes a key has stored. */
export const STORED_BYTES_METRIC = 'ipfs_stored_bytes';

/** Per-key limits of the IPFS route (default: the settings' values). */
export interface IpfsLimits {
  readonly maxRequestBytes: number;
  readonly maxStoredBytesPerKey: number;
}

/** What the IPFS route is built from. */
export interface IpfsRouteDeps {
  readonly settings: IpfsSettings;
  /** The Kubo-compatible upstream's base URL (`http://host:port`; commands under `/api/v0/`). */
  readonly upstreamUrl: string;
  readonly keys: KeyAuthenticator;
  readonly store: KeyStore;
  readonly limits?: Partial<IpfsLimits>;
}

const API = '/api/v0/';
const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Basic realm="nodegate IPFS"' };

/**
 * The gateway's IPFS HTTP API, `POST {ipfs_url}/api/v0/<command>`, as a streaming route (raw
 * request/response, ahead of Fastify): Kubo's transport rules (404 text, 405 with
 * `Allow: OPTIONS, POST`, CORS preflight), HTTP basic auth `<API_KEY>:<API_KEY_SECRET>` (401),
 * the command allowlist (403), per-key limits on request size and stored bytes (413), then a
 * streaming proxy to the upstream, or the gateway's own object/* over block/get and block/put.
 *
 * @example
 * const route = createIpfsRoute({ settings: config.ipfs, upstreamUrl: 'http://127.0.0.1:5001', keys, store });
 * const app = await buildApp(config, { networks, keys, streaming: [route] });
 */
export function createIpfsRoute(deps: IpfsRouteDeps): StreamingRoute {
  const { settings, keys, store } = deps;
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
  const allowed = new Set(settings.allow);
  const basePath = url.pathname.replace(/\/$/, '');

  const storedLimitMessage = (used: number) =>
    `storage limit reached: this API key has stored ${used} of ${limits.maxStoredBytesPerKey} bytes allowed`;

  async function handle(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const q = rest.indexOf('?');
    const path = q < 0 ? rest : rest.slice(0, q);
    const query = q < 0 ? '' : rest.slice(q);
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
    const key = auth.record.key;
    const command = resolveIpfsCommand(path.slice(API.length));
    if (command === undefined) return writeIpfsText(req, res, 404, '404 page not found');
    if (!allowed.has(command.name)) {
      return writeIpfsError(req, res, 403, `command "${command.name}" is not allowed on this gateway`, 1);
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limits.maxRequestBytes) {
      return writeIpfsError(req, res, 413, `request body too large: the limit is ${limits.maxRequestBytes} bytes`, 1);
    }
    const params = new URLSearchParams(query);
    const stores = command.spec.storesBytes && params.get('only-hash') !== 'true';
    let used = 0;
    if (stores) {
      used = await store.usage(key, STORED_BYTES_METRIC);
      if (used >= limits.maxStoredBytesPerKey || used + declared > limits.maxStoredBytesPerKey) {
        return writeIpfsError(req, res, 413, storedLimitMessage(used), 1);
      }
    }
    const onStored = async (bytes: number) => {
      if (bytes > 0) await store.addUsage(key, STORED_BYTES_METRIC, bytes);
    };

    if (command.spec.servedBy === 'gateway') {
      if (command.pathArg !== undefined && !params.has('arg')) params.set('arg', command.pathArg);
      await runObjectCommand(command.name as ObjectCommandName, req, res, upstream, params, {
        maxRequestBytes: limits.maxRequestBytes,
        beforeStore: (bytes) => {
          if (used + bytes > limits.maxStoredBytesPerKey) {
            throw new IpfsCommandError(413, storedLimitMessage(used), 1);
          }
        },
        onStored,
      });
      return;
    }
    proxyToUpstream(req, res, {
      upstream: url,
      agent: upstream.agent,
      path: `${basePath}${path}${query}`,
      headers: upstream.headers,
      idleTimeoutMs: upstream.idleTimeoutMs,
      maxRequestBytes: limits.maxRequestBytes,
      resetOnStreamError: settings.resetOnStreamError,
      ...(stores
        ? {
            storage: {
              remainingBytes: limits.maxStoredBytesPerKey - used,
              limitMessage: storedLimitMessage(used),
              onStored,
            },
          }
        : {}),
    });
  }

  return {
    match: matchHostOrPrefix(settings.hosts, settings.pathPrefix),
    handle(req, res, rest) {
      handle(req, res, rest).catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
        } else if (err instanceof IpfsCommandError) {
          writeIpfsError(req, res, err.status, err.message, err.code);
        } else if (err instanceof UpstreamCallError) {
          writeIpfsError(req, res, 502, 'upstream IPFS node unavailable', 0);
        } else {
          writeIpfsError(req, res, 500, 'internal error', 0);
        }
      });
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
    },
  };
}
