import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IpfsSettings } from '../config/types.js';
import { matchHostOrPrefix } from '../edge/matchHostOrPrefix.js';
import type { Limiter } from '../limits/Limiter.js';
import { createMemoryLimiter } from '../limits/createMemoryLimiter.js';
import type { Logger } from '../log/createLogger.js';
import { callUpstream, UpstreamCallError } from './callUpstream.js';
import { collectIpfsGarbage, type IpfsGcReport } from './collectIpfsGarbage.js';
import { createIpfsAgent } from './createIpfsAgent.js';
import { createUploadLedger } from './createUploadLedger.js';
import { createServedMeter, type ServedLimits, type ServedMeter, type ServedTally } from './createServedMeter.js';
import type { IpfsCommandContext, IpfsLimits } from './IpfsCommandContext.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import { DatabaseUnavailableError } from '../store/DatabaseUnavailableError.js';
import { wireError } from '../wire/wireError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { createCollectionGate } from './mfs/createCollectionGate.js';
import { createMfs, type Mfs } from './mfs/createMfs.js';
import type { MfsRootStore } from './mfs/MfsRootStore.js';
import { withMfsRoots } from './mfs/withMfsRoots.js';
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
  /**
   * Each key's MFS root (durable: `createSqlMfsRootStore` over the gateway's database). Without it
   * the route keeps them in an in-memory PGlite database, lost on restart: pass one in production.
   */
  readonly mfsRoots?: MfsRootStore | Promise<MfsRootStore>;
  readonly limits?: Partial<IpfsLimits>;
  /**
   * The gateway's limiter: served bytes (per second, per day) and the credits per served MiB are
   * charged to it, so every instance sharing it (Redis) shares the bounds. Default: one in memory.
   */
  readonly limiter?: Limiter;
  /** Where collections and failures to record storage are reported. */
  readonly log?: Logger;
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
   * path check, allowlist, limits, pins, proxy), writing any error as Kubo JSON. With `served`
   * (the key's plan), answers of content are paced, charged and bounded; the returned tally is
   * read when the answer ends (usage).
   */
  serve(
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    served?: Omit<ServedLimits, 'creditsPerMiB'>,
  ): ServedTally;
  /**
   * Bytes the key makes the node store: its pins' stored sizes plus its unpinned bytes until the
   * node collects them (the storage quota's measure).
   */
  storedBytes(key: string): Promise<number>;
  /**
   * Runs one collection now ({@link collectIpfsGarbage}); a collection already running is
   * awaited instead of starting a second one.
   */
  collect(): Promise<IpfsGcReport>;
  /**
   * For /health: the background probe's last answer (every 5 s the upstream is asked `version`,
   * 5 s at most); reading it sends nothing upstream. Unhealthy after three failed probes in a row.
   */
  health(): {
    name: string;
    family: string;
    upstreams: Array<{ name: string; healthy: boolean; lastProbeAt?: string }>;
    /** The scheduled collection: its interval and the last run's outcome (absent when off). */
    gc?: IpfsGcHealth;
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
  const upstream: IpfsUpstream = {
    url,
    agent: createIpfsAgent(url),
    headers: settings.upstream.headers ?? {},
    idleTimeoutMs: settings.upstream.timeoutMs,
  };
  const limits: IpfsLimits = {
    maxRequestBytes: deps.limits?.maxRequestBytes ?? settings.maxRequestBytes,
    maxStoredBytesPerKey: deps.limits?.maxStoredBytesPerKey ?? settings.maxStoredBytesPerKey,
  };
  let closeMemory: (() => Promise<void>) | undefined;
  let closeMemoryMfs: (() => Promise<void>) | undefined;
  let rootsReady: Promise<MfsRootStore> | undefined;
  const mfsRoots = (): Promise<MfsRootStore> => {
    rootsReady ??= deps.mfsRoots
      ? Promise.resolve(deps.mfsRoots)
      : openMemoryMfsRootStore().then(({ store, close }) => {
          closeMemoryMfs = close;
          return store;
        });
    return rootsReady;
  };
  // the keys' pins seen with their MFS roots: the roots count in stored bytes and the collection keeps them
  let pinsReady: Promise<PinStore> | undefined;
  const pins = (): Promise<PinStore> => {
    pinsReady ??= Promise.all([
      deps.pins
        ? Promise.resolve(deps.pins)
        : openMemoryPinStore().then(({ store, close }) => {
            closeMemory = close;
            return store;
          }),
      mfsRoots(),
    ]).then(([store, roots]) => withMfsRoots(store, roots));
    return pinsReady;
  };
  const limiter = deps.limiter ?? createMemoryLimiter();
  const ownLimiter = deps.limiter === undefined ? limiter : undefined;
  const base = {
    upstream,
    basePath: url.pathname.replace(/\/$/, ''),
    allowed: new Set<string>(settings.allow),
    limits,
    resetOnStreamError: settings.resetOnStreamError,
    uploads: createUploadLedger(),
    log: deps.log,
  };
  // MFS changes and this process's collections take turns (new MFS blocks are unpinned until their root is pinned)
  const gate = createCollectionGate();
  let mfsReady: Promise<Mfs> | undefined;
  const mfs = (): Promise<Mfs> => {
    mfsReady ??= Promise.all([pins(), mfsRoots()]).then(([store, roots]) =>
      createMfs({
        upstream,
        roots,
        pins: store,
        uploads: base.uploads,
        maxStoredBytesPerKey: limits.maxStoredBytesPerKey,
        gate,
        log: deps.log,
      }),
    );
    return mfsReady;
  };

  const fail = (req: IncomingMessage, res: ServerResponse) => (err: unknown) => {
    if (res.headersSent) {
      res.destroy();
    } else if (err instanceof IpfsCommandError) {
      writeIpfsError(req, res, err.status, err.message, err.code, { ...err.headers });
    } else if (err instanceof UpstreamCallError) {
      writeIpfsError(req, res, 502, 'upstream IPFS node unavailable', 0);
    } else if (err instanceof DatabaseUnavailableError) {
      // pins, stored bytes and MFS roots are in the database: while it is away, 503 with Retry-After
      const answer = wireError(err);
      writeIpfsError(req, res, answer.status, `${answer.error.message}: database-unavailable`, 0, {
        ...answer.headers,
      });
    } else {
      writeIpfsError(req, res, 500, 'internal error', 0);
    }
  };
  const serve = async (key: string, req: IncomingMessage, res: ServerResponse, rest: string, meter?: ServedMeter) => {
    const ctx: IpfsCommandContext = { ...base, pins: await pins(), collect, mfs: await mfs() };
    await serveIpfsCommand(key, req, res, rest, ctx, meter);
  };

  // the scheduled collection: one at a time per process; its outcome is in /health
  const gcState: {
    running?: Promise<IpfsGcReport> | undefined;
    last?: IpfsGcReport;
    lastError?: string | undefined;
    at?: number;
  } = {};
  const suspects = new Set<string>();
  const collect = (): Promise<IpfsGcReport> => {
    gcState.running ??= pins()
      .then((store) =>
        gate.exclusive(() =>
          collectIpfsGarbage(upstream, store, {
            unpinUnowned: settings.gc.unpinUnowned,
            suspects,
            signal: AbortSignal.timeout(settings.gc.timeoutMs),
          }),
        ),
      )
      .then(
        (report) => {
          gcState.last = report;
          gcState.lastError = undefined;
          gcState.at = Date.now();
          deps.log?.info('ipfs: garbage collected', { ...report });
          return report;
        },
        (err: unknown) => {
          gcState.lastError = (err as Error).message;
          gcState.at = Date.now();
          deps.log?.warn('ipfs: garbage collection failed; unpinned bytes still count', {
            error: (err as Error).message,
          });
          throw err;
        },
      )
      .finally(() => {
        gcState.running = undefined;
      });
    return gcState.running;
  };
  let gcTimer: NodeJS.Timeout | undefined;
  const scheduleGc = () => {
    if (settings.gc.intervalMs <= 0 || closed) return;
    gcTimer = setTimeout(() => {
      collect()
        .catch(() => undefined)
        .finally(scheduleGc);
    }, settings.gc.intervalMs);
    gcTimer.unref();
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
  scheduleGc();

  return {
    match: matchHostOrPrefix(settings.hosts, settings.pathPrefix),
    serve(key, req, res, rest, served) {
      let meter: ServedMeter | undefined;
      if (served !== undefined) {
        const gone = new AbortController();
        const limits = { ...served, creditsPerMiB: settings.creditsPerServedMiB };
        const m = createServedMeter(limiter, key, limits, gone.signal);
        // before the edge's own close listener reads the tally for usage
        res.once('close', () => {
          gone.abort();
          m.flush();
        });
        meter = m;
      }
      serve(key, req, res, rest, meter).catch(fail(req, res));
      return meter ?? NOTHING_SERVED;
    },
    async storedBytes(key) {
      return (await pins()).storedBytes(key);
    },
    collect,
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
        ...(settings.gc.intervalMs > 0 ? { gc: gcHealth(settings.gc.intervalMs, gcState) } : {}),
      };
    },
    async close() {
      closed = true;
      clearTimeout(probeTimer);
      clearTimeout(gcTimer);
      await gcState.running?.catch(() => undefined);
      upstream.agent.destroy();
      await ownLimiter?.close();
      await closeMemory?.();
      await closeMemoryMfs?.();
    },
  };
}

/** The scheduled collection as /health shows it. */
export interface IpfsGcHealth {
  readonly intervalMs: number;
  /** ISO time the last collection ended (absent before the first). */
  readonly lastRunAt?: string;
  /** Whether it succeeded; when it failed, `lastError` says why (unpinned bytes keep counting). */
  readonly ok?: boolean;
  readonly lastError?: string;
  readonly removedBlocks?: number;
  readonly durationMs?: number;
}

function gcHealth(
  intervalMs: number,
  s: { last?: IpfsGcReport; lastError?: string | undefined; at?: number },
): IpfsGcHealth {
  if (s.at === undefined) return { intervalMs };
  return {
    intervalMs,
    lastRunAt: new Date(s.at).toISOString(),
    ok: s.lastError === undefined,
    ...(s.lastError === undefined ? {} : { lastError: s.lastError }),
    ...(s.last ? { removedBlocks: s.last.removedBlocks, durationMs: s.last.durationMs } : {}),
  };
}

const NOTHING_SERVED: ServedTally = Object.freeze({ bytes: 0, credits: 0, stoppedBy: undefined });

/** The fallback MFS root store: PGlite in memory (loaded only when no store was given). */
async function openMemoryMfsRootStore(): Promise<{ store: MfsRootStore; close: () => Promise<void> }> {
  const [{ PGlite }, { createSqlMfsRootStore }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('./mfs/createSqlMfsRootStore.js'),
  ]);
  const db = new PGlite();
  const store = await createSqlMfsRootStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as never);
  return { store, close: () => db.close() };
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
