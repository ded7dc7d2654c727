import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { IpfsSettings } from '../config/types.js';
import { matchHostOrPrefix } from '../edge/matchHostOrPrefix.js';
import { callUpstream, UpstreamCallError } from './callUpstream.js';
import type { IpfsCommandContext, IpfsLimits } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import type { PinStore } from './pins/PinStore.js';
import { serveIpfsCommand } from './serveIpfsCommand.js';
import { writeIpfsError } from './writeIpfsError.js';

export type { IpfsLimits } from './IpfsCommandContext.js';

/** What the IPFS route is built from. */
export interface IpfsRouteDeps {
  readonly settings: IpfsSettings;
  /** The Kubo-compatible upstream's base URL (`http://host:port`; commands under `/api/v0/`). */
  readonly upstreamUrl: string;
  /**
   * Which key pins what (durable: `createSqlPinStore` over the gateway's database). Without it
   * the route keeps pins in an in-memory PGlite database, lost on restart: pass one in production.
   */
  readonly pins?: PinStore | Promise<PinStore>;
  readonly limits?: Partial<IpfsLimits>;
}

/**
 * The IPFS route as the edge reaches it: which requests are its own, the step after the shared
 * request path admitted a request, and what health and usage read from it.
 */
export interface IpfsRoute {
  /** The path after the route's prefix (or the whole path when its Host matched), or undefined. */
  match(host: string | undefined, url: string): string | undefined;
  /**
   * Serves one request whose key is already authenticated (everything after authentication:
   * path check, allowlist, limits, pins, proxy), writing any error as Kubo JSON.
   */
  serve(key: string, req: IncomingMessage, res: ServerResponse, rest: string): void;
  /** Bytes the key stores: the sum of its pins' sizes (the upload quota's measure). */
  storedBytes(key: string): Promise<number>;
  /**
   * For /health: the background probe's last answer (every 5 s the upstream is asked `version`,
   * 5 s at most); reading it sends nothing upstream. Unhealthy after three failed probes in a row.
   */
  health(): {
    name: string;
    family: string;
    upstreams: Array<{ name: string; healthy: boolean; lastProbeAt?: string }>;
  };
  close(): Promise<void>;
}

/**
 * The gateway's IPFS HTTP API, `POST {ipfs_url}/api/v0/<command>`, on raw request/response
 * streams (nothing parsed or buffered): once the shared request path (`edge/serveIpfs.ts`) has
 * admitted a request, `serve` runs {@link serveIpfsCommand} for its key (path check, allowlist,
 * size and storage limits, the key's own pins, the proxy) and writes failures as Kubo JSON.
 *
 * @example
 * const pins = await createSqlPinStore(query);
 * const route = createIpfsRoute({ settings: config.ipfs, upstreamUrl: 'http://127.0.0.1:5001', pins });
 * route.serve(key, req, res, '/api/v0/cat?arg=Qm…');
 * await route.storedBytes(key); // for usage reports
 */
export function createIpfsRoute(deps: IpfsRouteDeps): IpfsRoute {
  const { settings } = deps;
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

  // background health: /health reads the last answer and never reaches the upstream itself. A
  // failed probe (a node busy with a large add can take seconds to answer) is re-tried a second
  // later; three failures in a row report the upstream unhealthy, one answer makes it healthy again.
  const probe = { healthy: true, at: 0, failures: 0 };
  let probeTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const probeOnce = (): void => {
    callUpstream(upstream, 'version', {}, { maxBytes: 65_536, signal: AbortSignal.timeout(5_000) })
      .then(
        (a) => a.status === 200,
        () => false,
      )
      .then((answered) => {
        probe.failures = answered ? 0 : probe.failures + 1;
        probe.healthy = probe.failures < 3;
        probe.at = Date.now();
        if (closed) return;
        probeTimer = setTimeout(probeOnce, probe.failures > 0 ? 1_000 : 5_000);
        probeTimer.unref();
      });
  };
  probeOnce();

  return {
    match: matchHostOrPrefix(settings.hosts, settings.pathPrefix),
    serve(key, req, res, rest) {
      serve(key, req, res, rest).catch(fail(req, res));
    },
    async storedBytes(key) {
      return (await pins()).storedBytes(key);
    },
    health() {
      return {
        name: 'ipfs',
        family: 'ipfs',
        upstreams: [
          {
            name: settings.upstream.name,
            healthy: probe.healthy,
            ...(probe.at ? { lastProbeAt: new Date(probe.at).toISOString() } : {}),
          },
        ],
      };
    },
    async close() {
      closed = true;
      clearTimeout(probeTimer);
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
