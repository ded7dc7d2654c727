import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { keyCommands } from './admin/keyCommands.js';
import { startAdminSocket } from './admin/startAdminSocket.js';
import type { GatewayConfig, NetworkFamily, NetworkSettings } from './config/types.js';
import { startEmbeddedBackends } from './embedded/startEmbeddedBackends.js';
import { ethFamily } from './families/eth/ethFamily.js';
import type { FamilyHandler } from './families/FamilyHandler.js';
import { createStarknetFamily } from './families/starknet/createStarknetFamily.js';
import { detectPendingTag } from './families/starknet/detectPendingTag.js';
import { buildApp } from './http/buildApp.js';
import { createLogger, type LogLevel } from './log/createLogger.js';
import type { StreamingRoute } from './http/StreamingRoute.js';
import { createIpfsRoute } from './ipfs/createIpfsRoute.js';
import { createApiKey } from './keys/createApiKey.js';
import { createKeyAuthenticator } from './keys/createKeyAuthenticator.js';
import { acquireDataDirLock } from './store/acquireDataDirLock.js';
import { openKeyStore } from './store/openKeyStore.js';
import { createNetwork, type Network } from './network/createNetwork.js';
import { createHttpUpstream } from './upstream/createHttpUpstream.js';

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
  close(): Promise<void>;
}

/**
 * The one composition root: builds every dependency from the frozen config (key store,
 * embedded backends, upstreams, networks, app), starts listening, and returns a handle
 * whose `close()` stops everything it started, in reverse order.
 *
 * @example
 * const gw = await startGateway(embeddedConfig({ listen: '127.0.0.1:0', dataDir: tmp }));
 * console.log(gw.networks['eth-devnet'].http, gw.devKey);
 * await gw.close();
 */
export async function startGateway(
  config: GatewayConfig,
  options: { progress?: (line: string) => void; logLevel?: LogLevel } = {},
): Promise<RunningGateway> {
  const progress = options.progress ?? (() => {});
  const dataDir = resolve(config.dataDir);
  await mkdir(dataDir, { recursive: true });
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    const unlock = await acquireDataDirLock(dataDir);
    cleanups.push(unlock);
    // The key store and the embedded backends start side by side.
    const [storeResult, backendsResult] = await Promise.allSettled([
      openKeyStore(config, dataDir),
      startEmbeddedBackends(config, progress),
    ]);
    if (storeResult.status === 'fulfilled') cleanups.push(() => storeResult.value.close());
    if (backendsResult.status === 'fulfilled') {
      const started = backendsResult.value;
      cleanups.push(async () => {
        await Promise.all([...started.values()].map((b) => b.stop()));
      });
    }
    if (storeResult.status === 'rejected') throw storeResult.reason;
    if (backendsResult.status === 'rejected') throw backendsResult.reason;
    const store = storeResult.value;
    const backends = backendsResult.value;
    progress(
      `key store: ${config.database.kind === 'embedded' ? `embedded database in ${join(dataDir, 'db')}` : 'PostgreSQL'}`,
    );
    const keys = createKeyAuthenticator(store);

    const networks: Network[] = await Promise.all(config.networks.map((n) => buildNetwork(n, backends, progress)));
    cleanups.push(async () => {
      await Promise.all(networks.flatMap((n) => n.upstreams.map((u) => u.close())));
    });

    const devKey = config.devKey ? await ensureDevKey(store, dataDir) : undefined;

    const streaming: StreamingRoute[] = [];
    if (config.ipfs) {
      const ipfs = config.ipfs;
      const upstreamUrl =
        (ipfs.upstream.embedded ? backends.get(ipfs.upstream.embedded)?.http : undefined) ?? ipfs.upstream.http;
      if (!upstreamUrl) throw new Error(`ipfs: upstream ${ipfs.upstream.name} has no URL`);
      streaming.push(createIpfsRoute({ settings: ipfs, upstreamUrl, keys, store }));
    }

    const app = await buildApp(config, {
      networks,
      keys,
      streaming,
      log: createLogger(options.logLevel ?? 'warn'),
    });
    cleanups.push(() => app.close());
    await app.listen({ host: config.listen.host, port: config.listen.port });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.listen.port;
    const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
    const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    const base = config.publicUrl?.replace(/\/$/, '') ?? url;

    const admin = await startAdminSocket(join(dataDir, 'admin.sock'), keyCommands(store, keys));
    cleanups.splice(cleanups.length - 1, 0, () => admin.close());

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
    return { app, url, networks: endpoints, devKey, close, ...(ipfsUrl ? { ipfs: ipfsUrl } : {}) };
  } catch (err) {
    await close();
    throw err;
  }
}

async function buildNetwork(
  n: NetworkSettings,
  backends: Map<string, { http: string; ws?: string | undefined }>,
  progress: (line: string) => void,
): Promise<Network> {
  const upstreams = n.upstreams.map((u) => {
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
  });
  let family: FamilyHandler;
  if (n.family === 'starknet') {
    const detected = await detectPendingTag(upstreams[0]);
    progress(
      `${n.name}: upstream speaks Starknet spec ${detected.specVersion ?? '(unknown)'}; "pending" is sent as "${detected.tag}"`,
    );
    family = createStarknetFamily({ pendingTag: detected.tag, maxChunkSize: n.maxEventsChunkSize });
  } else {
    family = ethFamily;
  }
  return createNetwork(n, family, upstreams);
}

/**
 * The development key of the embedded default: created on first start; its secret is kept
 * in `<dataDir>/dev-key.json` (mode 0600) so later starts can print it again.
 */
async function ensureDevKey(
  store: Awaited<ReturnType<typeof openKeyStore>>,
  dataDir: string,
): Promise<{ key: string; secret: string }> {
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
