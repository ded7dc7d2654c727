import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ensureOperator } from './accounts/ensureOperator.js';
import { createSignInThrottle } from './accounts/createSignInThrottle.js';
import { registerAdminApi } from './admin/registerAdminApi.js';
import { locateDashboardDist } from './dashboard/locateDashboardDist.js';
import { registerDashboard } from './dashboard/registerDashboard.js';
import { removeAdminEndpoint } from './admin/removeAdminEndpoint.js';
import { writeAdminEndpoint } from './admin/writeAdminEndpoint.js';
import type { GatewayConfig, NetworkFamily, NetworkSettings } from './config/types.js';
import type { ClusterWorkerContext } from './cluster/ClusterWorkerContext.js';
import { buildApp } from './edge/buildApp.js';
import { createTlsReloader, type TlsListener, type TlsReloader } from './edge/tls/createTlsReloader.js';
import { describeCertificate } from './edge/tls/describeCertificate.js';
import { loadTlsContext } from './edge/tls/loadTlsContext.js';
import { embeddedBackendsOf } from './embedded/embeddedBackendsOf.js';
import { startEmbeddedBackends } from './embedded/startEmbeddedBackends.js';
import { seedIpfsWelcome } from './embedded/welcome/seedIpfsWelcome.js';
import { ethFamily } from './families/eth/ethFamily.js';
import { openEthFilters } from './families/eth/filters/openEthFilters.js';
import type { FamilyHandler } from './families/FamilyHandler.js';
import { createStarknetFamily } from './families/starknet/createStarknetFamily.js';
import { type L1Networks, l1NetworksOf } from './families/starknet/starknetPostmanMethods.js';
import { detectPendingTag } from './families/starknet/detectPendingTag.js';
import type { IpfsGcReport } from './ipfs/collectIpfsGarbage.js';
import { createIpfsRoute, type IpfsRoute } from './ipfs/createIpfsRoute.js';
import { createSqlMfsRootStore } from './ipfs/mfs/createSqlMfsRootStore.js';
import { createSqlPinStore } from './ipfs/pins/createSqlPinStore.js';
import { createIpfsGateways, type IpfsGateways } from './ipfsGateway/createIpfsGateways.js';
import { ensureDevGateway } from './ipfsGateway/ensureDevGateway.js';
import { createSqlGatewayStore } from './ipfsGateway/store/createSqlGatewayStore.js';
import { DEFAULT_PLAN_NAME } from './plans/Plan.js';
import { createApiKey } from './keys/createApiKey.js';
import { createKeyAuthenticator } from './keys/createKeyAuthenticator.js';
import { createKeyChangeNotices } from './keys/createKeyChangeNotices.js';
import { createKeyGate } from './limits/createKeyGate.js';
import { createMemoryLimiter } from './limits/createMemoryLimiter.js';
import type { Limiter } from './limits/Limiter.js';
import type { DegradingLimiter } from './limits/createDegradingLimiter.js';
import { createSharedLimiter } from './limits/createSharedLimiter.js';
import { createAccessLogRecorder } from './log/createAccessLogRecorder.js';
import type { Logger, LogLevel } from './log/createLogger.js';
import { createLogOutput, type LogOutput } from './log/createLogOutput.js';
import { createBearerAuthorizer } from './metrics/createBearerAuthorizer.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/createGatewayMetrics.js';
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
import { watchRedis } from './redis/watchRedis.js';
import type { DependencyHealth } from './health/createDependencyHealth.js';
import { dependencyCollectors } from './health/dependencyCollectors.js';
import { acquireDataDirLock } from './store/acquireDataDirLock.js';
import type { Database } from './store/Database.js';
import type { KeyStore } from './store/KeyStore.js';
import type { EmbeddedDatabaseOptions } from './store/embedded/openEmbeddedDatabase.js';
import { openDatabase } from './store/openDatabase.js';
import { prepareDataDir } from './store/prepareDataDir.js';
import { rememberWhileUnavailable } from './store/rememberWhileUnavailable.js';
import { createHttpUpstream } from './upstream/createHttpUpstream.js';
import type { UsageRecorder } from './usage/UsageEvent.js';
import { createUsageMethodNamer } from './usage/createUsageMethodNamer.js';
import { createUsageRecorder } from './usage/createUsageRecorder.js';
import { openSqlUsageStore } from './usage/openSqlUsageStore.js';
import { usageCollectors } from './usage/usageCollectors.js';

/** Where each network is served, as printed at startup and written to the ready file. */
export interface NetworkEndpoints {
  family: NetworkFamily;
  http: string;
  ws: string;
}

/** A started gateway. */
export interface RunningGateway {
  readonly app: FastifyInstance;
  /** http://host:port the gateway listens on (https:// with `tls`). */
  readonly url: string;
  readonly networks: Record<string, NetworkEndpoints>;
  /** The IPFS base URL (`{ipfs_url}`; the API is under `/api/v0/`), when IPFS is configured. */
  readonly ipfs?: string;
  /**
   * The development account's dedicated IPFS gateway, in its path form (`{base}/ipfs-gateway/dev`:
   * append `/ipfs/<cid>`), when IPFS, its gateways and the development key are configured.
   */
  readonly ipfsGateway?: string;
  readonly devKey: { key: string; secret: string } | undefined;
  /** The admin API, and the operator's token for it (also in `<dataDir>/admin-token`). */
  readonly admin: { readonly url: string; readonly token: string };
  /** The dashboard and a one-time sign-in link for the operator (15 minutes). */
  readonly dashboard: { readonly url: string; readonly signInUrl: string | undefined };
  /** Prometheus metrics (`metrics.enabled`): where they are served, and whether the admin token is needed. */
  readonly metrics: { readonly url: string; readonly auth: 'admin-token' | 'none' } | undefined;
  /** WebSocket subscriptions: `stats()` for metrics (shape: `SubscriptionStats`). */
  readonly subscriptions: Subscriptions;
  /**
   * With `tls`: the certificate served, and `reload()` (what SIGHUP runs in `nodegate start`):
   * reads the files again and serves them to new connections on every listener, open ones stay.
   */
  readonly tls?: TlsReloader;
  /** Writes recorded usage now (tests; it is flushed every second anyway). */
  flushUsage(): Promise<void>;
  /** Runs the IPFS garbage collection now (what `ipfs.gc.intervalMs` schedules), when IPFS is configured. */
  collectIpfsGarbage?(): Promise<IpfsGcReport>;
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
    /** Where log lines go (`nodegate start` passes its own, to write its summary there too; it closes it). */
    output?: LogOutput;
    /** Subscription heartbeats and reconnect backoff (tests shorten them). */
    subscriptionTimings?: Partial<SubscriptionTimings>;
    /** The embedded database's engine and thread (the comparison bench, `npm run bench -- embedded-db`). */
    embeddedDatabase?: Pick<EmbeddedDatabaseOptions, 'engine' | 'thread'>;
    /** How often recorded usage is written (default 1 s; a test of one large flush lengthens it). */
    usageFlushIntervalMs?: number;
    /**
     * Started as a worker of `nodegate start --workers N` (`src/cluster/`): the primary holds the
     * data directory's lock, the embedded backends and the upstream subscriptions.
     */
    cluster?: ClusterWorkerContext;
  } = {},
): Promise<RunningGateway> {
  const worker = options.cluster;
  const progress = options.progress ?? (() => {});
  // the log on stderr in text, or every line JSON on stdout (log.format); the access log in a file or stdout
  const output = options.output ?? createLogOutput(config.log, { level: options.logLevel });
  const log = output.logger;
  const metrics = config.metrics.enabled
    ? createGatewayMetrics({
        onCollectError: (name, err) => log.warn('metrics collector failed', { metric: name, error: err }),
      })
    : undefined;
  // the certificate is read (and checked) before anything starts: a bad one fails the start at once
  const tls = config.tls ? loadTlsContext(config.tls) : undefined;
  if (tls) {
    progress(`tls: ${describeCertificate(tls.certificate)}`);
    if (tls.certificate.expired) log.warn('the TLS certificate has expired', { validTo: tls.certificate.validTo });
  }
  const dataDir = resolve(config.dataDir);
  // umask 077, the directory 0700, and a refusal when other users can write in it
  await prepareDataDir(dataDir, log);
  const cleanups: Array<() => Promise<void>> = [];
  if (!options.output) cleanups.push(() => output.close());
  // told first, at once: a backend's exit from then on is part of the stop (a terminal's Ctrl-C
  // reaches the backends too), not a crash to restart
  const stopping: Array<() => void> = [];
  const close = async () => {
    for (const s of stopping) s();
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    // One process owns a data directory with an embedded database or embedded backends (a second
    // gateway there would reap the first's live backends); PostgreSQL deployments without
    // embedded backends run many instances on one.
    // (in a cluster the primary holds it for every worker)
    if (!worker && (config.database.kind === 'embedded' || embeddedBackendsOf(config).size > 0)) {
      cleanups.push(await acquireDataDirLock(dataDir));
    }
    // The database and the embedded backends start side by side.
    const [dbResult, backendsResult] = await Promise.allSettled([
      openDatabase(config, dataDir, log, options.embeddedDatabase),
      worker ? startedByPrimary(worker) : startEmbeddedBackends(config, progress, log),
    ]);
    if (dbResult.status === 'fulfilled') cleanups.push(() => dbResult.value.close());
    if (backendsResult.status === 'fulfilled') {
      const started = backendsResult.value;
      stopping.push(() => started.expectStop());
      cleanups.push(() => started.stop());
    }
    if (dbResult.status === 'rejected') throw dbResult.reason;
    if (backendsResult.status === 'rejected') throw backendsResult.reason;
    const db: Database = dbResult.value;
    const backends = backendsResult.value.backends;
    progress(
      `database: ${config.database.kind === 'embedded' ? `embedded (SQLite) in ${join(dataDir, 'db')}` : 'PostgreSQL'}`,
    );

    let redis: Redis | undefined;
    // Redis's health: while it is away, limits are counted per instance and the cache is bypassed
    let redisHealth: DependencyHealth | undefined;
    if (config.redis) {
      const r = await openRedis(config.redis.url, config.redis);
      redis = r;
      cleanups.push(async () => {
        await r.quit().catch(() => r.disconnect());
      });
      const health = watchRedis(r, { timeoutMs: config.redis.commandTimeoutMs, log });
      redisHealth = health;
      cleanups.push(async () => health.close());
      progress('limits: Redis (shared by every instance)');
    } else {
      progress('limits: in memory (one instance)');
    }
    const prefix = config.redis?.prefix ?? 'nodegate:';
    const limiter =
      redis && redisHealth
        ? createSharedLimiter(redis, { prefix: `${prefix}limits:`, health: redisHealth, log })
        : createMemoryLimiter();
    // the upstreams' budgets (rateLimit): counted as the limits are (Redis: every instance
    // together, with the same fallback while it is away), under keys of their own
    const budgets = config.networks.some((n) => [...n.upstreams, ...n.partners].some((u) => u.rateLimit))
      ? redis && redisHealth
        ? createSharedLimiter(redis, { prefix: `${prefix}upstream-budgets:`, health: redisHealth, log })
        : createMemoryLimiter()
      : undefined;
    if (budgets) cleanups.push(() => budgets.close());
    if (metrics) {
      for (const c of dependencyCollectors(db.health)) metrics.addCollector(c);
      if (redisHealth) {
        const shared = limiter as DegradingLimiter;
        for (const c of dependencyCollectors(redisHealth, () => shared.degraded())) metrics.addCollector(c);
      }
    }
    const usageStore = await openSqlUsageStore(db.sql);
    // methods are stored under a table's name or a bucket (never the client's text); a row the
    // database refuses is set aside (usage_dead_letter) and never holds back the others
    const usageRecorder = createUsageRecorder({
      store: usageStore,
      methodName: createUsageMethodNamer(config.networks),
      ...(options.usageFlushIntervalMs === undefined ? {} : { flushIntervalMs: options.usageFlushIntervalMs }),
      onError: (err) => {
        metrics?.usageFlushFailed();
        log.error('usage flush failed (kept for the next flush)', { error: (err as Error).message });
      },
      onSetAside: (rows, reason) => log.error('usage rows set aside (usage_dead_letter)', { rows, reason }),
    });
    if (metrics) for (const c of usageCollectors(() => usageRecorder.health())) metrics.addCollector(c);
    let usage: UsageRecorder = usageRecorder;
    // every transport reports each finished request here: metrics and the access log read it
    if (metrics) usage = createMeteredUsageRecorder(usage, metrics, createMethodClassifier(config.networks));
    if (config.log.access) {
      const access = output.openAccessLog(dataDir);
      progress(`access log: ${access.where}`);
      usage = createAccessLogRecorder(usage, { write: access.write });
    }
    const recorder = usage;
    cleanups.push(() => recorder.close());
    const keys = createKeyAuthenticator(db.keys, config.plans);
    // a change drops the key here (and re-checks its open WebSocket connections); notices missed
    // while Redis was away drop every cached key once it is back
    const notices = await createKeyChangeNotices(
      redis,
      prefix,
      { changed: (key) => keys.forget(key), resync: () => keys.forgetAll() },
      log,
    );
    cleanups.push(() => notices.close());
    const gate = createKeyGate({
      maxConcurrent: config.limits.maxConcurrentPerKey,
      maxQueued: config.limits.maxQueuedPerKey,
    });
    const networks: Network[] = await Promise.all(
      config.networks.map((n) =>
        buildNetwork(n, backends, progress, log, l1NetworksOf(config.networks, backends), budgets),
      ),
    );
    if (metrics) for (const c of upstreamCollectors(networks)) metrics.addCollector(c);
    cleanups.push(async () => {
      await Promise.all(networks.map((n) => n.close()));
      await Promise.all(networks.flatMap((n) => n.upstreams.map((u) => u.close())));
    });

    // the finality-aware response cache, with a head tracker per Ethereum and Starknet network
    let cacheStage: CacheStage | undefined;
    let headTap: HeadTap | undefined;
    if (config.cache.enabled) {
      const cache = startResponseCache(config.cache, networks, redis, prefix, redisHealth);
      cleanups.push(() => cache.close());
      cacheStage = cache.stage;
      headTap = cache.headTap;
      if (metrics) for (const c of cacheCollectors(cache.store)) metrics.addCollector(c);
      progress(
        `cache: ${config.cache.kind === 'redis' ? 'Redis (shared)' : 'in memory'}, at most ${Math.round(config.cache.maxBytes / 1048576)} MiB`,
      );
    }
    // eth filters: clients get the gateway's own ids, each kept with its key and its upstream
    // (in Redis when configured, so every instance reads them)
    const filters = openEthFilters({
      maxPerKey: config.limits.maxFiltersPerKey,
      timeoutMs: config.limits.filterTimeoutMs,
      networks,
      log,
      redis:
        redis && config.redis
          ? { client: redis, prefix, commandTimeoutMs: config.redis.commandTimeoutMs, health: redisHealth }
          : undefined,
    });
    cleanups.push(async () => filters.close());
    const path = createRequestPath({
      keys,
      limiter,
      gate,
      usage,
      maxBatch: config.limits.maxBatch,
      invalidCallCredits: config.limits.invalidCallCredits,
      cache: cacheStage,
      filters,
    });

    const devKey = config.devKey ? await ensureDevKey(db.keys, dataDir) : undefined;

    let ipfs: IpfsRoute | undefined;
    if (config.ipfs) {
      const settings = config.ipfs;
      const upstreamUrl =
        (settings.upstream.embedded ? backends.get(settings.upstream.embedded)?.http : undefined) ??
        settings.upstream.http;
      if (!upstreamUrl) throw new Error(`ipfs: upstream ${settings.upstream.name} has no URL`);
      const pins = await createSqlPinStore(db.sql);
      // a new embedded IPFS repo gets the README's welcome file, pinned by the development key (once)
      if (config.embedded.welcome && devKey && settings.upstream.embedded === 'ipfs-node') {
        const markerFile = join(dataDir, 'ipfs-welcome.json');
        await seedIpfsWelcome({ upstreamUrl, pins, key: devKey.key, markerFile }).then(
          (r) => r.seeded && progress(`ipfs: the welcome file ${r.cid}, pinned by the development key`),
          (err) => log.warn('the IPFS node could not be given the welcome file', { error: (err as Error).message }),
        );
      }
      // each key's MFS root (files/*) in the same database
      const mfsRoots = await createSqlMfsRootStore(db.sql);
      ipfs = createIpfsRoute({ settings, upstreamUrl, pins, mfsRoots, limiter, log });
    }

    // dedicated gateways: what an account's keys pinned, served to browsers (the same node, the same request path)
    let ipfsGateways: IpfsGateways | undefined;
    let devGatewayName: string | undefined;
    const gatewaySettings = config.ipfs?.gateways;
    if (config.ipfs && gatewaySettings?.enabled) {
      const upstream = config.ipfs.upstream;
      const gatewayUpstream = (upstream.embedded ? backends.get(upstream.embedded)?.http : undefined) ?? upstream.http;
      if (!gatewayUpstream) throw new Error(`ipfs: upstream ${upstream.name} has no URL`);
      const gatewayStore = await createSqlGatewayStore(db.sql);
      const gateways = createIpfsGateways({
        settings: gatewaySettings,
        store: gatewayStore,
        accounts: db.accounts,
        plans: config.plans,
        defaultPlan: DEFAULT_PLAN_NAME,
        upstreamUrl: gatewayUpstream,
        headers: upstream.headers ?? {},
        limiter,
      });
      ipfsGateways = gateways;
      cleanups.push(async () => gateways.close());
      // the development account has a gateway from the first start on (restricted: what its keys pin)
      const devRecord = devKey ? await db.keys.find(devKey.key) : undefined;
      if (devRecord) devGatewayName = (await ensureDevGateway(gatewayStore, devRecord.accountId)).name;
    }

    const serveMetrics = metrics
      ? createMetricsHandler(worker ? clusterScrape(metrics, worker) : metrics, {
          authorize:
            config.metrics.auth === 'admin-token'
              ? createBearerAuthorizer(rememberWhileUnavailable((token) => db.accounts.verifyAdminToken(token)))
              : undefined,
          log,
        })
      : undefined;
    const subscriptions = createSubscriptions({
      log,
      timings: options.subscriptionTimings,
      heads: headTap,
      connect: worker ? (network) => worker.subscriptions(network) : undefined,
    });
    if (metrics) for (const c of subscriptionCollectors(subscriptions)) metrics.addCollector(c);
    const app = await buildApp(config, {
      networks,
      subscriptions,
      path,
      limiter,
      log,
      ipfs,
      ipfsGateways,
      dependencies: redisHealth ? [db.health, redisHealth] : [db.health],
      usageHealth: () => usageRecorder.health(),
      worker: worker?.id,
      metrics: config.metrics.listen ? undefined : serveMetrics,
      tls,
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
          // password checks counted per address and email, across instances when Redis is configured
          signInThrottle: createSignInThrottle({
            redis,
            prefix,
            redisTimeoutMs: config.redis?.commandTimeoutMs,
            health: redisHealth,
            log,
          }),
          // invitation links: the public URL, else the address the inviting request came to
          baseUrl: config.publicUrl ? () => config.publicUrl! : undefined,
          gateways: ipfsGateways
            ? {
                store: ipfsGateways.store,
                settings: ipfsGateways.settings,
                baseUrl: () => base,
                bandwidthToday: (accountId) => ipfsGateways!.bandwidthToday(accountId),
                onGatewayChanged: (name) => ipfsGateways!.directory.forget(name),
              }
            : undefined,
        });
      },
    });
    cleanups.push(() => app.close());
    await app.listen({ host: config.listen.host, port: config.listen.port });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.listen.port;
    const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
    const scheme = tls ? 'https' : 'http';
    const url = `${scheme}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    const base = config.publicUrl?.replace(/\/$/, '') ?? url;
    let metricsUrl = serveMetrics ? `${base}/metrics` : undefined;
    // every listener speaks TLS when it is configured, the metrics listener too
    const listeners: TlsListener[] = [app.server as unknown as TlsListener];
    if (serveMetrics && config.metrics.listen) {
      const listener = await startMetricsListener(config.metrics.listen, serveMetrics, tls);
      cleanups.push(() => listener.close());
      metricsUrl = listener.url;
      listeners.push(listener.server as unknown as TlsListener);
    }
    if (metricsUrl) {
      const auth = config.metrics.auth === 'admin-token' ? ' (Authorization: Bearer <admin token>)' : '';
      progress(`metrics: ${metricsUrl}${auth}`);
    }

    // a one-time sign-in link is made once per start (by the first worker in a cluster)
    const operator = await ensureOperator({
      accounts: db.accounts,
      dataDir,
      baseUrl: base,
      signIn: !worker || worker.first,
    });
    await writeAdminEndpoint(dataDir, url, tls?.cert);
    const tlsReloader =
      config.tls && tls
        ? createTlsReloader(config.tls, tls, {
            listeners: () => listeners,
            log,
            // the CLI pins the certificate it finds there
            onLoaded: (next) => writeAdminEndpoint(dataDir, url, next.cert),
          })
        : undefined;
    cleanups.splice(cleanups.length - 1, 0, () => removeAdminEndpoint(dataDir));

    const endpoints: Record<string, NetworkEndpoints> = {};
    for (const n of config.networks) {
      const httpBase = n.pathPrefix ? `${base}${n.pathPrefix}` : `${scheme}://${n.hosts[0]}:${port}`;
      endpoints[n.name] = { family: n.family, http: httpBase, ws: httpBase.replace(/^http/, 'ws') };
    }
    const ipfsUrl = config.ipfs
      ? config.ipfs.pathPrefix
        ? `${base}${config.ipfs.pathPrefix}`
        : `${scheme}://${config.ipfs.hosts[0]}:${port}`
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
      ...(tlsReloader ? { tls: tlsReloader } : {}),
      flushUsage: () => usage.flush(),
      close,
      ...(ipfsUrl ? { ipfs: ipfsUrl } : {}),
      ...(ipfsGateways && devGatewayName
        ? { ipfsGateway: `${base}${ipfsGateways.settings.pathPrefix}/${devGatewayName}` }
        : {}),
      ...(ipfs ? { collectIpfsGarbage: () => ipfs!.collect() } : {}),
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The embedded backends of a cluster worker: started (and stopped) by the primary, reached by URL. */
async function startedByPrimary(worker: ClusterWorkerContext) {
  return { backends: worker.backends, stop: async () => {}, expectStop: () => {} };
}

/** A cluster worker's `/metrics`: every process's, each labelled with its worker. */
function clusterScrape(metrics: GatewayMetrics, worker: ClusterWorkerContext) {
  worker.shareMetrics(() => metrics.scrapeJson());
  return { contentType: metrics.contentType, scrape: () => worker.scrapeMetrics() };
}

async function buildNetwork(
  n: NetworkSettings,
  backends: ReadonlyMap<string, { http: string; ws?: string | undefined }>,
  progress: (line: string) => void,
  log: Logger,
  l1Networks: L1Networks,
  budgets: Limiter | undefined,
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
      client: u.client,
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
    family = createStarknetFamily({ pendingTag: detected.tag, maxChunkSize: n.maxEventsChunkSize, l1Networks });
  } else {
    family = ethFamily;
  }
  const network = createNetwork(n, family, upstreams, {
    partners,
    log,
    ...(pendingTag ? { pendingTag } : {}),
    ...(budgets ? { budgets } : {}),
  });
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
