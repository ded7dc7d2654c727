import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ensureOperator } from './accounts/ensureOperator.js';
import { registerAdminApi } from './admin/registerAdminApi.js';
import { locateDashboardDist } from './dashboard/locateDashboardDist.js';
import { registerDashboard } from './dashboard/registerDashboard.js';
import { removeAdminEndpoint } from './admin/removeAdminEndpoint.js';
import { writeAdminEndpoint } from './admin/writeAdminEndpoint.js';
import type { GatewayConfig, NetworkFamily, NetworkSettings } from './config/types.js';
import { buildApp } from './edge/buildApp.js';
import { embeddedBackendsOf } from './embedded/embeddedBackendsOf.js';
import { startEmbeddedBackends } from './embedded/startEmbeddedBackends.js';
import { ethFamily } from './families/eth/ethFamily.js';
import type { FamilyHandler } from './families/FamilyHandler.js';
import { createStarknetFamily } from './families/starknet/createStarknetFamily.js';
import { detectPendingTag } from './families/starknet/detectPendingTag.js';
import { createIpfsRoute, type IpfsRoute } from './ipfs/createIpfsRoute.js';
import { createSqlPinStore } from './ipfs/pins/createSqlPinStore.js';
import { createApiKey } from './keys/createApiKey.js';
import { createKeyAuthenticator } from './keys/createKeyAuthenticator.js';
import { createKeyChangeNotices } from './keys/createKeyChangeNotices.js';
import { createKeyGate } from './limits/createKeyGate.js';
import { createMemoryLimiter } from './limits/createMemoryLimiter.js';
import { createRedisLimiter } from './limits/createRedisLimiter.js';
import { createAccessLogRecorder } from './log/createAccessLogRecorder.js';
import { createLogger, type Logger, type LogLevel } from './log/createLogger.js';
import { createBearerAuthorizer } from './metrics/createBearerAuthorizer.js';
import { createGatewayMetrics } from './metrics/createGatewayMetrics.js';
import { createMeteredUsageRecorder } from './metrics/createMeteredUsageRecorder.js';
import { createMethodClassifier } from './metrics/createMethodClassifier.js';
import { createMetricsHandler } from './metrics/createMetricsHandler.js';
import { startMetricsListener } from './metrics/startMetricsListener.js';
import { subscriptionCollectors } from './metrics/subscriptionCollectors.js';
import { upstreamCollectors } from './metrics/upstreamCollectors.js';
import { cacheCollectors } from './metrics/cacheCollectors.js';
import type { HeadTap } from './cache/createHeadTap.js';
import { startResponseCache } from './cache/startResponseCache.js';
import type { CacheStage } from './pipeline/stages/createCacheStage.js';
import { createNetwork, type Network } from './network/createNetwork.js';
import { createRequestPath } from './pipeline/requestPath.js';
import {
  createSubscriptions,
  type Subscriptions,
  type SubscriptionTimings,
} from './subscriptions/createSubscriptions.js';
import { openRedis } from './redis/openRedis.js';
import { acquireDataDirLock } from './store/acquireDataDirLock.js';
import type { Database } from './store/Database.js';
import type { KeyStore } from './store/KeyStore.js';
import { openDatabase } from './store/openDatabase.js';
import { createHttpUpstream } from './upstream/createHttpUpstream.js';
import type { UsageRecorder } from './usage/UsageEvent.js';
import { createUsageRecorder } from './usage/createUsageRecorder.js';
import { openSqlUsageStore } from './usage/openSqlUsageStore.js';

/** Where each network is served, as printed at startup and written to the ready file. */
export interface NetworkEndpoints {
  family: NetworkFamily;
  http: string;
  ws: string;
}

/** A started gateway. */
export interface RunningGateway {
  readonly app: FastifyInstance;
  /** http://host:port the gateway listens on. */
  readonly url: string;
  readonly networks: Record<string, NetworkEndpoints>;
  /** The IPFS base URL (`{ipfs_url}`; the API is under `/api/v0/`), when IPFS is configured. */
  readonly ipfs?: string;
  readonly devKey: { key: string; secret: string } | undefined;
  /** The admin API, and the operator's token for it (also in `<dataDir>/admin-token`). */
  readonly admin: { readonly url: string; readonly token: string };
  /** The dashboard and a one-time sign-in link for the operator (15 minutes). */
  readonly dashboard: { readonly url: string; readonly signInUrl: string | undefined };
  /** Prometheus metrics (`metrics.enabled`): where they are served, and whether the admin token is needed. */
  readonly metrics: { readonly url: string; readonly auth: 'admin-token' | 'none' } | undefined;
  /** WebSocket subscriptions: `stats()` for metrics (shape: `SubscriptionStats`). */
  readonly subscriptions: Subscriptions;
  /** Writes recorded usage now (tests; it is flushed every second anyway). */
  flushUsage(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one composition root: builds every dependency from the frozen config (database, Redis,
 * limiter, usage recorder, key authenticator, embedded backends, upstreams, networks, the
 * request path, the app), starts listening, and returns a handle whose `close()` stops
 * everything it started, in reverse order (usage is flushed before the database closes).
 *
 * @example
 * const gw = await startGateway(embeddedConfig({ listen: '127.0.0.1:0', dataDir: tmp }));
 * console.log(gw.networks['eth-devnet'].http, gw.devKey);
 * await gw.close();
 */
export async function startGateway(
  config: GatewayConfig,
  options: {
    progress?: (line: string) => void;
    logLevel?: LogLevel;
    /** Subscription heartbeats and reconnect backoff (tests shorten them). */
    subscriptionTimings?: Partial<SubscriptionTimings>;
  } = {},
): Promise<RunningGateway> {
  const progress = options.progress ?? (() => {});
  const log = createLogger(options.logLevel ?? config.log.level);
  const metrics = config.metrics.enabled
    ? createGatewayMetrics({
        onCollectError: (name, err) => log.warn('metrics collector failed', { metric: name, error: err }),
      })
    : undefined;
  const dataDir = resolve(config.dataDir);
  await mkdir(dataDir, { recursive: true });
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    // One process owns a data directory with an embedded database or embedded backends (a second
    // gateway there would reap the first's live backends); PostgreSQL deployments without
    // embedded backends run many instances on one.
    if (config.database.kind === 'embedded' || embeddedBackendsOf(config).size > 0) {
      cleanups.push(await acquireDataDirLock(dataDir));
    }
    // The database and the embedded backends start side by side.
    const [dbResult, backendsResult] = await Promise.allSettled([
      openDatabase(config, dataDir),
      startEmbeddedBackends(config, progress, log),
    ]);
    if (dbResult.status === 'fulfilled') cleanups.push(() => dbResult.value.close());
    if (backendsResult.status === 'fulfilled') {
      const started = backendsResult.value;
      cleanups.push(() => started.stop());
    }
    if (dbResult.status === 'rejected') throw dbResult.reason;
    if (backendsResult.status === 'rejected') throw backendsResult.reason;
    const db: Database = dbResult.value;
    const backends = backendsResult.value.backends;
    progress(
      `database: ${config.database.kind === 'embedded' ? `embedded (PGlite) in ${join(dataDir, 'db')}` : 'PostgreSQL'}`,
    );

    let redis: Redis | undefined;
    if (config.redis) {
      const r = await openRedis(config.redis.url);
      redis = r;
      cleanups.push(async () => {
        await r.quit().catch(() => r.disconnect());
      });
      progress('limits: Redis (shared by every instance)');
    } else {
      progress('limits: in memory (one instance)');
    }
    const prefix = config.redis?.prefix ?? 'nodegate:';
    const limiter = redis ? createRedisLimiter(redis, { prefix: `${prefix}limits:` }) : createMemoryLimiter();
    const usageStore = await openSqlUsageStore(db.query);
    let usage: UsageRecorder = createUsageRecorder({
      store: usageStore,
      onError: (err) => {
        metrics?.usageFlushFailed();
        log.error('usage flush failed (kept for the next flush)', { error: (err as Error).message });
      },
    });
    // every transport reports each finished request here: metrics and the access log read it
    if (metrics) usage = createMeteredUsageRecorder(usage, metrics, createMethodClassifier(config.networks));
    if (config.log.access) usage = createAccessLogRecorder(usage);
    const recorder = usage;
    cleanups.push(() => recorder.close());
    const keys = createKeyAuthenticator(db.keys, config.plans);
    const notices = await createKeyChangeNotices(redis, prefix, (key) => keys.forget(key));
    cleanups.push(() => notices.close());
    const gate = createKeyGate({
      maxConcurrent: config.limits.maxConcurrentPerKey,
      maxQueued: config.limits.maxQueuedPerKey,
    });
    const networks: Network[] = await Promise.all(config.networks.map((n) => buildNetwork(n, backends, progress, log)));
    if (metrics) for (const c of upstreamCollectors(networks)) metrics.addCollector(c);
    cleanups.push(async () => {
      await Promise.all(networks.map((n) => n.close()));
      await Promise.all(networks.flatMap((n) => n.upstreams.map((u) => u.close())));
    });

    // the finality-aware response cache, with a head tracker per Ethereum and Starknet network
    let cacheStage: CacheStage | undefined;
    let headTap: HeadTap | undefined;
    if (config.cache.enabled) {
      const cache = startResponseCache(config.cache, networks, redis, prefix);
      cleanups.push(() => cache.close());
      cacheStage = cache.stage;
      headTap = cache.headTap;
      if (metrics) for (const c of cacheCollectors(cache.store)) metrics.addCollector(c);
      progress(
        `cache: ${config.cache.kind === 'redis' ? 'Redis (shared)' : 'in memory'}, at most ${Math.round(config.cache.maxBytes / 1048576)} MiB`,
      );
    }
    const path = createRequestPath({ keys, limiter, gate, usage, maxBatch: config.limits.maxBatch, cache: cacheStage });

    const devKey = config.devKey ? await ensureDevKey(db.keys, dataDir) : undefined;

    let ipfs: IpfsRoute | undefined;
    if (config.ipfs) {
      const settings = config.ipfs;
      const upstreamUrl =
        (settings.upstream.embedded ? backends.get(settings.upstream.embedded)?.http : undefined) ??
        settings.upstream.http;
      if (!upstreamUrl) throw new Error(`ipfs: upstream ${settings.upstream.name} has no URL`);
      ipfs = createIpfsRoute({ settings, upstreamUrl, pins: await createSqlPinStore(db.query) });
    }

    const serveMetrics = metrics
      ? createMetricsHandler(metrics, {
          authorize:
            config.metrics.auth === 'admin-token'
              ? createBearerAuthorizer((token) => db.accounts.verifyAdminToken(token))
              : undefined,
          log,
        })
      : undefined;
    const subscriptions = createSubscriptions({ log, timings: options.subscriptionTimings, heads: headTap });
    if (metrics) for (const c of subscriptionCollectors(subscriptions)) metrics.addCollector(c);
    const app = await buildApp(config, {
      networks,
      subscriptions,
      path,
      limiter,
      log,
      ipfs,
      metrics: config.metrics.listen ? undefined : serveMetrics,
      register: async (a) => {
        const dashboard = () => ({ networks: endpoints, ipfs: ipfsUrl ?? null, adminUrl: `${base}/admin/api/v1` });
        await registerDashboard(a, { distDir: locateDashboardDist(), config: dashboard });
        await registerAdminApi(a, {
          keys: db.keys,
          accounts: db.accounts,
          usage: usageStore,
          plans: config.plans,
          usedToday: (key) => limiter.usedToday(key),
          storedBytes: ipfs ? (key) => ipfs!.storedBytes(key) : undefined,
          maxStoredBytesPerKey: config.ipfs?.maxStoredBytesPerKey,
          onKeyChanged: (key) => notices.publish(key),
        });
      },
    });
    cleanups.push(() => app.close());
    await app.listen({ host: config.listen.host, port: config.listen.port });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.listen.port;
    const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
    const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    const base = config.publicUrl?.replace(/\/$/, '') ?? url;
    let metricsUrl = serveMetrics ? `${base}/metrics` : undefined;
    if (serveMetrics && config.metrics.listen) {
      const listener = await startMetricsListener(config.metrics.listen, serveMetrics);
      cleanups.push(() => listener.close());
      metricsUrl = listener.url;
    }
    if (metricsUrl) {
      const auth = config.metrics.auth === 'admin-token' ? ' (Authorization: Bearer <admin token>)' : '';
      progress(`metrics: ${metricsUrl}${auth}`);
    }

    const operator = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl: base });
    await writeAdminEndpoint(dataDir, url);
    cleanups.splice(cleanups.length - 1, 0, () => removeAdminEndpoint(dataDir));

    const endpoints: Record<string, NetworkEndpoints> = {};
    for (const n of config.networks) {
      const httpBase = n.pathPrefix ? `${base}${n.pathPrefix}` : `http://${n.hosts[0]}:${port}`;
      endpoints[n.name] = { family: n.family, http: httpBase, ws: httpBase.replace(/^http/, 'ws') };
    }
    const ipfsUrl = config.ipfs
      ? config.ipfs.pathPrefix
        ? `${base}${config.ipfs.pathPrefix}`
        : `http://${config.ipfs.hosts[0]}:${port}`
      : undefined;
    return {
      app,
      url,
      networks: endpoints,
      devKey,
      admin: { url: `${base}/admin/api/v1`, token: operator.adminToken },
      dashboard: { url: `${base}/dashboard`, signInUrl: operator.signInUrl },
      metrics: metricsUrl ? { url: metricsUrl, auth: config.metrics.auth } : undefined,
      subscriptions,
      flushUsage: () => usage.flush(),
      close,
      ...(ipfsUrl ? { ipfs: ipfsUrl } : {}),
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function buildNetwork(
  n: NetworkSettings,
  backends: ReadonlyMap<string, { http: string; ws?: string | undefined }>,
  progress: (line: string) => void,
  log: Logger,
): Promise<Network> {
  const toUpstream = (u: NetworkSettings['upstreams'][number]) => {
    const embedded = u.embedded ? backends.get(u.embedded) : undefined;
    const http = embedded?.http ?? u.http;
    if (!http) throw new Error(`network ${n.name}: upstream ${u.name} has no URL`);
    return createHttpUpstream({
      name: u.name,
      http,
      ws: embedded?.ws ?? u.ws,
      timeoutMs: u.timeoutMs,
      headers: u.headers,
    });
  };
  const upstreams = n.upstreams.map(toUpstream);
  const partners = n.partners.map(toUpstream);
  let family: FamilyHandler;
  let pendingTag: 'pre_confirmed' | 'pending' | undefined;
  if (n.family === 'starknet') {
    const detected = await detectPendingTag(upstreams[0]);
    progress(
      `${n.name}: upstream speaks Starknet spec ${detected.specVersion ?? '(unknown)'}; "pending" is sent as "${detected.tag}"`,
    );
    pendingTag = detected.tag;
    family = createStarknetFamily({ pendingTag: detected.tag, maxChunkSize: n.maxEventsChunkSize });
  } else {
    family = ethFamily;
  }
  const network = createNetwork(n, family, upstreams, { partners, log, ...(pendingTag ? { pendingTag } : {}) });
  // the first health snapshot before the gateway takes traffic (bounded: a dead upstream does not hold the start)
  await Promise.race([network.probeNow(), new Promise((r) => setTimeout(r, 2_500).unref())]);
  return network;
}

/**
 * The development key of the embedded default: created on first start; its secret is kept
 * in `<dataDir>/dev-key.json` (mode 0600) so later starts can print it again.
 */
async function ensureDevKey(store: KeyStore, dataDir: string): Promise<{ key: string; secret: string }> {
  const file = join(dataDir, 'dev-key.json');
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as { key: string; secret: string };
    const rec = await store.find(saved.key);
    if (rec && rec.revokedAt === null) return saved;
  } catch {
    // no usable saved dev key: create one below
  }
  const { record, secret } = await createApiKey(store, { name: 'development key', plan: 'dev', dev: true });
  const saved = { key: record.key, secret };
  await rm(file, { force: true });
  await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return saved;
}
