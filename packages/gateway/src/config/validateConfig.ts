import { DEFAULT_IPFS_ALLOW, isIpfsCommandName } from '../ipfs/ipfsCommands.js';
import { ConfigError } from './ConfigError.js';
import { parseEmbedded } from './parseEmbedded.js';
import { parseConsensus } from './parseConsensus.js';
import { parseObservability } from './parseObservability.js';
import { INVALID_CALL_CREDITS } from '../pipeline/stages/chargeCredits.js';
import { parseTls } from './parseTls.js';
import { parseTrustedProxies } from './parseTrustedProxies.js';
import { parseWorkers } from './parseWorkers.js';
import type {
  DatabaseSettings,
  EmbeddedBackend,
  GatewayConfig,
  IpfsSettings,
  LimitSettings,
  NetworkFamily,
  NetworkSettings,
  RedisSettings,
  CacheSettings,
  UpstreamPolicy,
  UpstreamRateLimit,
  UpstreamSettings,
} from './types.js';
import {
  DEFAULT_GATEWAY_BANDWIDTH_PER_DAY,
  DEFAULT_IPFS_SERVED,
  DEFAULT_PLAN_NAME,
  DEFAULT_PLANS,
  type Plan,
} from '../plans/Plan.js';
import { parseGatewaySettings } from '../ipfsGateway/config/parseGatewaySettings.js';
import { headerFieldProblem } from '../upstream/headerFieldProblem.js';

const FAMILIES: readonly NetworkFamily[] = ['eth', 'starknet'];
const EMBEDDED: readonly EmbeddedBackend[] = ['anvil', 'starknet-devchain', 'ipfs-node'];
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Validates a parsed config file (YAML or JSON), fills in defaults, and returns a deeply
 * frozen {@link GatewayConfig}. Throws {@link ConfigError} naming the first bad field.
 *
 * @example
 * validateConfig({ networks: [{ name: 'mainnet', family: 'eth', upstreams: [{ name: 'a', http: 'http://10.0.0.5:8545' }] }] })
 */
export function validateConfig(raw: unknown, defaults: { dataDir: string } = { dataDir: '.nodegate' }): GatewayConfig {
  const root = obj(raw, '(config)');
  allowOnly(root, '(config)', [
    'listen',
    'publicUrl',
    'dataDir',
    'database',
    'limits',
    'networks',
    'ipfs',
    'devKey',
    'plans',
    'redis',
    'log',
    'metrics',
    'cache',
    'trustedProxies',
    'embedded',
    'tls',
    'workers',
  ]);
  const listen = parseListen(root.listen ?? '127.0.0.1:8550', 'listen');
  const publicUrl = root.publicUrl === undefined ? undefined : httpUrl(root.publicUrl, 'publicUrl');
  const trustedProxies = parseTrustedProxies(root.trustedProxies, 'trustedProxies');
  const tls = parseTls(root.tls, 'tls');
  const dataDir = root.dataDir === undefined ? defaults.dataDir : str(root.dataDir, 'dataDir');
  const database = parseDatabase(root.database, 'database');
  const limits = parseLimits(root.limits, 'limits');
  const plans = parsePlans(root.plans, 'plans');
  const redis = root.redis === undefined ? undefined : parseRedis(root.redis, 'redis');
  if (!Array.isArray(root.networks)) throw new ConfigError('networks', 'must be a list of networks');
  const networks = root.networks.map((n, i) => parseNetwork(n, `networks[${i}]`));
  const seenNames = new Set<string>();
  const seenHosts = new Set<string>();
  const seenPrefixes = new Set<string>();
  networks.forEach((n, i) => {
    if (seenNames.has(n.name)) throw new ConfigError(`networks[${i}].name`, `"${n.name}" is used by two networks`);
    seenNames.add(n.name);
    for (const h of n.hosts) {
      if (seenHosts.has(h)) throw new ConfigError(`networks[${i}].hosts`, `host "${h}" is used by two networks`);
      seenHosts.add(h);
    }
    if (n.pathPrefix !== undefined) {
      if (seenPrefixes.has(n.pathPrefix)) {
        throw new ConfigError(`networks[${i}].pathPrefix`, `"${n.pathPrefix}" is used by two networks`);
      }
      seenPrefixes.add(n.pathPrefix);
    }
  });
  const ipfs = root.ipfs === undefined ? undefined : parseIpfs(root.ipfs, 'ipfs');
  if (ipfs?.pathPrefix !== undefined && seenPrefixes.has(ipfs.pathPrefix)) {
    throw new ConfigError('ipfs.pathPrefix', `"${ipfs.pathPrefix}" is also a network's pathPrefix`);
  }
  ipfs?.hosts.forEach((h, i) => {
    if (seenHosts.has(h)) throw new ConfigError(`ipfs.hosts[${i}]`, `host "${h}" is also a network's host`);
  });
  if (networks.length === 0 && ipfs === undefined) throw new ConfigError('networks', 'configure at least one network');
  const devKey = root.devKey === undefined ? false : bool(root.devKey, 'devKey');
  const embedded = parseEmbedded(root.embedded, 'embedded');
  const { log, metrics } = parseObservability(root, parseListen);
  const cache = parseCache(root.cache, 'cache');
  if (cache.enabled && cache.kind === 'redis' && redis === undefined) {
    throw new ConfigError('cache.kind', '"redis" needs the redis section (url, prefix)');
  }
  const workers = root.workers === undefined ? 'auto' : parseWorkers(root.workers, 'workers', redis !== undefined);
  const config: GatewayConfig = {
    listen,
    publicUrl,
    tls,
    dataDir,
    database,
    limits,
    plans,
    redis,
    networks,
    ipfs,
    devKey,
    embedded,
    log,
    metrics,
    cache,
    trustedProxies,
    workers,
  };
  return deepFreeze(config);
}

function parseLimits(raw: unknown, at: string): LimitSettings {
  const l = raw === undefined ? {} : obj(raw, at);
  allowOnly(l, at, [
    'maxBodyBytes',
    'maxBatch',
    'maxConcurrentPerKey',
    'maxQueuedPerKey',
    'requestTimeoutMs',
    'headersTimeoutMs',
    'bodyTimeoutMs',
    'keepAliveTimeoutMs',
    'invalidCallCredits',
    'maxFiltersPerKey',
    'filterTimeoutMs',
    'ws',
  ]);
  const w = l.ws === undefined ? {} : obj(l.ws, `${at}.ws`);
  allowOnly(w, `${at}.ws`, ['maxConnectionsPerKey', 'maxInFlightPerConnection', 'maxSendBufferBytes']);
  return {
    maxBodyBytes: int(l.maxBodyBytes ?? 5 * 1024 * 1024, `${at}.maxBodyBytes`, 1024, 1024 ** 3),
    maxBatch: int(l.maxBatch ?? 100, `${at}.maxBatch`, 1, 10_000),
    maxConcurrentPerKey: int(l.maxConcurrentPerKey ?? 32, `${at}.maxConcurrentPerKey`, 1, 100_000),
    maxQueuedPerKey: int(l.maxQueuedPerKey ?? 1_000, `${at}.maxQueuedPerKey`, 0, 1_000_000),
    requestTimeoutMs: int(l.requestTimeoutMs ?? 60_000, `${at}.requestTimeoutMs`, 100, 3_600_000),
    headersTimeoutMs: int(l.headersTimeoutMs ?? 10_000, `${at}.headersTimeoutMs`, 100, 600_000),
    bodyTimeoutMs: int(l.bodyTimeoutMs ?? 10_000, `${at}.bodyTimeoutMs`, 100, 600_000),
    keepAliveTimeoutMs: int(l.keepAliveTimeoutMs ?? 65_000, `${at}.keepAliveTimeoutMs`, 100, 3_600_000),
    invalidCallCredits: int(l.invalidCallCredits ?? INVALID_CALL_CREDITS, `${at}.invalidCallCredits`, 0, 1_000_000),
    maxFiltersPerKey: int(l.maxFiltersPerKey ?? 100, `${at}.maxFiltersPerKey`, 1, 100_000),
    filterTimeoutMs: int(l.filterTimeoutMs ?? 300_000, `${at}.filterTimeoutMs`, 1_000, 86_400_000),
    ws: {
      maxConnectionsPerKey: int(w.maxConnectionsPerKey ?? 100, `${at}.ws.maxConnectionsPerKey`, 1, 1_000_000),
      maxInFlightPerConnection: int(
        w.maxInFlightPerConnection ?? 256,
        `${at}.ws.maxInFlightPerConnection`,
        1,
        1_000_000,
      ),
      maxSendBufferBytes: int(
        w.maxSendBufferBytes ?? 4 * 1024 * 1024,
        `${at}.ws.maxSendBufferBytes`,
        64 * 1024,
        1024 ** 3,
      ),
    },
  };
}

function parsePlans(raw: unknown, at: string): Record<string, Plan> {
  const plans: Record<string, Plan> = {};
  for (const [name, p] of Object.entries(DEFAULT_PLANS)) plans[name] = { name, ...p };
  if (raw === undefined) return plans;
  for (const [name, value] of Object.entries(obj(raw, at))) {
    const here = `${at}.${name}`;
    if (!NAME.test(name)) throw new ConfigError(here, 'plan names use lowercase letters, digits and dashes');
    const p = obj(value, here);
    allowOnly(p, here, [
      'creditsPerSecond',
      'creditsPerDay',
      'failoverProtection',
      'maxKeys',
      'ipfsServedBytesPerDay',
      'ipfsServedBytesPerRequest',
      'ipfsServedBytesPerSecond',
      'gatewayBandwidthPerDay',
      'maxLogsBlockRange',
      'maxLogsResults',
    ]);
    const base = plans[name];
    const need = (field: string) => {
      if (base === undefined && p[field] === undefined)
        throw new ConfigError(`${here}.${field}`, 'required for a new plan');
    };
    for (const f of ['creditsPerSecond', 'creditsPerDay']) need(f);
    plans[name] = {
      name,
      creditsPerSecond: int(p.creditsPerSecond ?? base?.creditsPerSecond, `${here}.creditsPerSecond`, 1, 1e12),
      creditsPerDay: int(p.creditsPerDay ?? base?.creditsPerDay, `${here}.creditsPerDay`, 1, 1e15),
      failoverProtection:
        p.failoverProtection === undefined
          ? (base?.failoverProtection ?? false)
          : bool(p.failoverProtection, `${here}.failoverProtection`),
      maxKeys: int(p.maxKeys ?? base?.maxKeys ?? 25, `${here}.maxKeys`, 1, 1_000_000),
      ...ipfsServed(p, base, here),
      gatewayBandwidthPerDay: int(
        p.gatewayBandwidthPerDay ?? base?.gatewayBandwidthPerDay ?? DEFAULT_GATEWAY_BANDWIDTH_PER_DAY,
        `${here}.gatewayBandwidthPerDay`,
        0,
        2 ** 53 - 1,
      ),
      ...logLimits(p, base, here),
    };
  }
  if (plans[DEFAULT_PLAN_NAME] === undefined) throw new ConfigError(at, `the plan "${DEFAULT_PLAN_NAME}" must exist`);
  return plans;
}

/** A plan's own eth_getLogs caps (replacing the network's), when it (or the plan it overrides) sets them. */
function logLimits(p: Record<string, unknown>, base: Plan | undefined, here: string) {
  const range = p.maxLogsBlockRange ?? base?.maxLogsBlockRange;
  const results = p.maxLogsResults ?? base?.maxLogsResults;
  return {
    ...(range === undefined ? {} : { maxLogsBlockRange: int(range, `${here}.maxLogsBlockRange`, 1, 1e12) }),
    ...(results === undefined ? {} : { maxLogsResults: int(results, `${here}.maxLogsResults`, 0, 1e9) }),
  };
}

/** A plan's IPFS served-bytes bounds: the given ones, else the plan's defaults, else core's. */
function ipfsServed(p: Record<string, unknown>, base: Plan | undefined, here: string) {
  const field = (name: keyof typeof DEFAULT_IPFS_SERVED, min: number) =>
    int(p[name] ?? base?.[name] ?? DEFAULT_IPFS_SERVED[name], `${here}.${name}`, min, 2 ** 53 - 1);
  return {
    ipfsServedBytesPerDay: field('ipfsServedBytesPerDay', 0),
    ipfsServedBytesPerRequest: field('ipfsServedBytesPerRequest', 0),
    ipfsServedBytesPerSecond: field('ipfsServedBytesPerSecond', 1024),
  };
}

function parseRedis(raw: unknown, at: string): RedisSettings {
  const r = typeof raw === 'string' ? { url: raw } : obj(raw, at);
  allowOnly(r, at, ['url', 'prefix', 'commandTimeoutMs', 'connectTimeoutMs']);
  const url = str(r.url, `${at}.url`);
  if (!/^rediss?:\/\//.test(url)) throw new ConfigError(`${at}.url`, 'must be a redis:// or rediss:// URL');
  const prefix = r.prefix === undefined ? 'nodegate:' : str(r.prefix, `${at}.prefix`);
  const commandTimeoutMs = int(r.commandTimeoutMs ?? 1_000, `${at}.commandTimeoutMs`, 10, 60_000);
  const connectTimeoutMs = int(r.connectTimeoutMs ?? 2_000, `${at}.connectTimeoutMs`, 10, 60_000);
  return { url, prefix, commandTimeoutMs, connectTimeoutMs };
}

function parseNetwork(raw: unknown, at: string): NetworkSettings {
  const n = obj(raw, at);
  allowOnly(n, at, [
    'name',
    'family',
    'chainId',
    'dev',
    'hosts',
    'pathPrefix',
    'upstreams',
    'partners',
    'policy',
    'maxEventsChunkSize',
    'maxLogsBlockRange',
    'maxLogsResults',
    'consensus',
  ]);
  const name = str(n.name, `${at}.name`);
  if (!NAME.test(name)) throw new ConfigError(`${at}.name`, 'use lowercase letters, digits and dashes (at most 63)');
  const family = str(n.family, `${at}.family`) as NetworkFamily;
  if (!FAMILIES.includes(family)) throw new ConfigError(`${at}.family`, `must be one of ${FAMILIES.join(', ')}`);
  const hosts = n.hosts === undefined ? [] : list(n.hosts, `${at}.hosts`).map((h, i) => host(h, `${at}.hosts[${i}]`));
  const pathPrefix = n.pathPrefix === undefined ? undefined : prefix(n.pathPrefix, `${at}.pathPrefix`);
  if (hosts.length === 0 && pathPrefix === undefined) {
    throw new ConfigError(at, 'set "hosts" and/or "pathPrefix" so requests can reach this network');
  }
  const ups = list(n.upstreams, `${at}.upstreams`);
  if (ups.length === 0) throw new ConfigError(`${at}.upstreams`, 'configure at least one upstream');
  const chainId = n.chainId === undefined ? undefined : chainIdOf(n.chainId, `${at}.chainId`);
  return {
    name,
    family,
    chainId,
    dev: n.dev === undefined ? false : bool(n.dev, `${at}.dev`),
    hosts,
    pathPrefix,
    upstreams: ups.map((u, i) => parseUpstream(u, `${at}.upstreams[${i}]`)),
    partners:
      n.partners === undefined
        ? []
        : list(n.partners, `${at}.partners`).map((u, i) => {
            const partner = parseUpstream(u, `${at}.partners[${i}]`);
            if (partner.embedded) throw new ConfigError(`${at}.partners[${i}].embedded`, 'a partner is a provider URL');
            return partner;
          }),
    policy: parsePolicy(n.policy, `${at}.policy`),
    maxEventsChunkSize: int(n.maxEventsChunkSize ?? 1024, `${at}.maxEventsChunkSize`, 1, 1_000_000),
    ...(n.maxLogsBlockRange === undefined
      ? {}
      : { maxLogsBlockRange: int(n.maxLogsBlockRange, `${at}.maxLogsBlockRange`, 1, 1e12) }),
    maxLogsResults: int(n.maxLogsResults ?? 10_000, `${at}.maxLogsResults`, 0, 1e9),
    consensus: parseConsensus(n.consensus, `${at}.consensus`, ups.length),
  };
}

function parseCache(raw: unknown, at: string): CacheSettings {
  const c = raw === undefined ? {} : obj(raw, at);
  allowOnly(c, at, ['enabled', 'kind', 'maxBytes', 'headPollMs']);
  const kind = c.kind === undefined ? 'memory' : str(c.kind, `${at}.kind`);
  if (kind !== 'memory' && kind !== 'redis') throw new ConfigError(`${at}.kind`, 'must be "memory" or "redis"');
  return {
    enabled: c.enabled === undefined ? true : bool(c.enabled, `${at}.enabled`),
    kind,
    maxBytes: int(c.maxBytes ?? 64 * 1024 * 1024, `${at}.maxBytes`, 1024, 2 ** 40),
    headPollMs: int(c.headPollMs ?? 1_000, `${at}.headPollMs`, 50, 600_000),
  };
}

function parsePolicy(raw: unknown, at: string): UpstreamPolicy {
  const p = raw === undefined ? {} : obj(raw, at);
  allowOnly(p, at, [
    'probeIntervalMs',
    'retries',
    'hedge',
    'breakerFailures',
    'breakerOpenMs',
    'methodTimeoutsMs',
    'exploreShare',
    'capabilityTtlMs',
    'partnerProbeIntervalMs',
    'multiplex',
    'diagnosticHeaders',
    'splitConcurrency',
  ]);
  const timeouts = p.methodTimeoutsMs === undefined ? {} : obj(p.methodTimeoutsMs, `${at}.methodTimeoutsMs`);
  const methodTimeoutsMs: Record<string, number> = {};
  for (const [method, ms] of Object.entries(timeouts)) {
    if (!/^[a-z][A-Za-z0-9_]*$/.test(method)) {
      throw new ConfigError(`${at}.methodTimeoutsMs`, `"${method}" is not a JSON-RPC method name`);
    }
    methodTimeoutsMs[method] = int(ms, `${at}.methodTimeoutsMs.${method}`, 50, 600_000);
  }
  return {
    probeIntervalMs: int(p.probeIntervalMs ?? 2_000, `${at}.probeIntervalMs`, 100, 600_000),
    retries: int(p.retries ?? 2, `${at}.retries`, 0, 10),
    hedge: p.hedge === undefined ? true : bool(p.hedge, `${at}.hedge`),
    breakerFailures: int(p.breakerFailures ?? 5, `${at}.breakerFailures`, 1, 1_000),
    breakerOpenMs: int(p.breakerOpenMs ?? 1_000, `${at}.breakerOpenMs`, 10, 600_000),
    methodTimeoutsMs,
    exploreShare: share(p.exploreShare ?? 0.02, `${at}.exploreShare`, 0.5),
    capabilityTtlMs: int(p.capabilityTtlMs ?? 600_000, `${at}.capabilityTtlMs`, 1_000, 86_400_000),
    partnerProbeIntervalMs: int(p.partnerProbeIntervalMs ?? 300_000, `${at}.partnerProbeIntervalMs`, 1_000, 86_400_000),
    multiplex: p.multiplex === undefined ? true : bool(p.multiplex, `${at}.multiplex`),
    diagnosticHeaders: p.diagnosticHeaders === undefined ? true : bool(p.diagnosticHeaders, `${at}.diagnosticHeaders`),
    splitConcurrency: int(p.splitConcurrency ?? 8, `${at}.splitConcurrency`, 1, 64),
  };
}

function share(v: unknown, at: string, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max) {
    throw new ConfigError(at, `must be a number from 0 to ${max}`);
  }
  return v;
}

function parseIpfs(raw: unknown, at: string): IpfsSettings {
  const n = obj(raw, at);
  allowOnly(n, at, [
    'hosts',
    'pathPrefix',
    'upstream',
    'allow',
    'maxRequestBytes',
    'maxStoredBytesPerKey',
    'resetOnStreamError',
    'creditsPerServedMiB',
    'gc',
    'gateways',
  ]);
  const hosts = n.hosts === undefined ? [] : list(n.hosts, `${at}.hosts`).map((h, i) => host(h, `${at}.hosts[${i}]`));
  const pathPrefix = n.pathPrefix === undefined ? undefined : prefix(n.pathPrefix, `${at}.pathPrefix`);
  if (hosts.length === 0 && pathPrefix === undefined) throw new ConfigError(at, 'set "hosts" and/or "pathPrefix"');
  const allow =
    n.allow === undefined
      ? DEFAULT_IPFS_ALLOW
      : list(n.allow, `${at}.allow`).map((c, i) => {
          const name = str(c, `${at}.allow[${i}]`);
          if (!isIpfsCommandName(name)) {
            throw new ConfigError(`${at}.allow[${i}]`, `"${name}" is not a Kubo RPC command (e.g. add, cat, pin/ls)`);
          }
          return name;
        });
  // IPFS calls can stay quiet for long (a large add answers after the import): a longer idle timeout
  const upstreamRaw =
    typeof n.upstream === 'object' && n.upstream !== null ? { timeoutMs: 300_000, ...n.upstream } : n.upstream;
  const upstream = parseUpstream(upstreamRaw, `${at}.upstream`);
  const gc = n.gc === undefined ? {} : obj(n.gc, `${at}.gc`);
  allowOnly(gc, `${at}.gc`, ['intervalMs', 'timeoutMs', 'unpinUnowned']);
  return {
    hosts,
    pathPrefix,
    upstream,
    allow,
    maxRequestBytes: int(n.maxRequestBytes ?? 1024 ** 3, `${at}.maxRequestBytes`, 1024, 2 ** 50),
    maxStoredBytesPerKey: int(n.maxStoredBytesPerKey ?? 10 * 1024 ** 3, `${at}.maxStoredBytesPerKey`, 0, 2 ** 50),
    resetOnStreamError:
      n.resetOnStreamError === undefined ? false : bool(n.resetOnStreamError, `${at}.resetOnStreamError`),
    creditsPerServedMiB: int(n.creditsPerServedMiB ?? 10, `${at}.creditsPerServedMiB`, 0, 1_000_000),
    gc: {
      intervalMs: int(gc.intervalMs ?? 3_600_000, `${at}.gc.intervalMs`, 0, 30 * 86_400_000),
      timeoutMs: int(gc.timeoutMs ?? 600_000, `${at}.gc.timeoutMs`, 1_000, 86_400_000),
      // the embedded node is the gateway's alone: its pin records decide what it keeps
      unpinUnowned:
        gc.unpinUnowned === undefined
          ? upstream.embedded !== undefined
          : bool(gc.unpinUnowned, `${at}.gc.unpinUnowned`),
    },
    gateways: parseGatewaySettings(n.gateways, `${at}.gateways`, pathPrefix),
  };
}

function parseUpstream(raw: unknown, at: string): UpstreamSettings {
  const u = obj(raw, at);
  allowOnly(u, at, [
    'name',
    'http',
    'ws',
    'embedded',
    'timeoutMs',
    'headers',
    'rateLimit',
    'getLogsMaxBlockRange',
    'archive',
    'historyBlocks',
    'client',
  ]);
  const name = str(u.name, `${at}.name`);
  const embedded = u.embedded === undefined ? undefined : (str(u.embedded, `${at}.embedded`) as EmbeddedBackend);
  if (embedded !== undefined && !EMBEDDED.includes(embedded)) {
    throw new ConfigError(`${at}.embedded`, `must be one of ${EMBEDDED.join(', ')}`);
  }
  if (embedded === undefined && u.http === undefined)
    throw new ConfigError(`${at}.http`, 'required (or set "embedded")');
  const http = u.http === undefined ? undefined : httpUrl(u.http, `${at}.http`);
  const ws = u.ws === undefined ? undefined : wsUrl(u.ws, `${at}.ws`);
  let headers: Record<string, string> | undefined;
  if (u.headers !== undefined) {
    headers = {};
    for (const [k, v] of Object.entries(obj(u.headers, `${at}.headers`))) {
      headers[k] = str(v, `${at}.headers.${k}`);
      // what an HTTP/1.1 head may carry: a token for a name, visible ASCII for a value
      const problem = headerFieldProblem(k, headers[k]);
      if (problem !== undefined)
        throw new ConfigError(problem.part === 'value' ? `${at}.headers.${k}` : `${at}.headers`, problem.message);
    }
  }
  const timeoutMs = int(u.timeoutMs ?? 10_000, `${at}.timeoutMs`, 100, 600_000);
  if (u.client !== undefined && u.client !== 'nodegate' && u.client !== 'undici')
    throw new ConfigError(`${at}.client`, 'must be "nodegate" (the default) or "undici"');
  const client = u.client as UpstreamSettings['client'];
  const parsed: UpstreamSettings = { name, http, ws, embedded, timeoutMs, headers, ...(client ? { client } : {}) };
  return {
    ...parsed,
    ...parseUpstreamHistory(u, at),
    ...(u.rateLimit === undefined ? {} : { rateLimit: parseRateLimit(u.rateLimit, `${at}.rateLimit`) }),
  };
}

/** An upstream's `getLogsMaxBlockRange`, `archive` and `historyBlocks` (only those it sets). */
function parseUpstreamHistory(u: Record<string, unknown>, at: string) {
  if (u.archive === true && u.historyBlocks !== undefined)
    throw new ConfigError(
      `${at}.historyBlocks`,
      'an archive node holds every block: set one of "archive" or "historyBlocks"',
    );
  return {
    ...(u.getLogsMaxBlockRange === undefined
      ? {}
      : { getLogsMaxBlockRange: int(u.getLogsMaxBlockRange, `${at}.getLogsMaxBlockRange`, 1, 1e12) }),
    ...(u.archive === undefined ? {} : { archive: bool(u.archive, `${at}.archive`) }),
    ...(u.historyBlocks === undefined ? {} : { historyBlocks: int(u.historyBlocks, `${at}.historyBlocks`, 1, 1e12) }),
  };
}

/** `rateLimit: { requestsPerSecond | creditsPerSecond, autoTune? }` of an upstream. */
function parseRateLimit(raw: unknown, at: string): UpstreamRateLimit {
  const r = obj(raw, at);
  allowOnly(r, at, ['requestsPerSecond', 'creditsPerSecond', 'autoTune']);
  if ((r.requestsPerSecond === undefined) === (r.creditsPerSecond === undefined)) {
    throw new ConfigError(at, 'set one of "requestsPerSecond" or "creditsPerSecond"');
  }
  const unit = r.requestsPerSecond !== undefined ? 'requests' : 'credits';
  const field = unit === 'requests' ? 'requestsPerSecond' : 'creditsPerSecond';
  const perSecond = r[field];
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 10_000_000) {
    throw new ConfigError(`${at}.${field}`, 'must be a number above 0 (at most 10000000)');
  }
  return { unit, perSecond, autoTune: r.autoTune === undefined ? true : bool(r.autoTune, `${at}.autoTune`) };
}

function parseDatabase(raw: unknown, at: string): DatabaseSettings {
  if (raw === undefined) return { kind: 'embedded', queryTimeoutMs: 5_000 };
  const d = obj(raw, at);
  const kind = str(d.kind, `${at}.kind`);
  const queryTimeoutMs = int(d.queryTimeoutMs ?? 5_000, `${at}.queryTimeoutMs`, 10, 600_000);
  if (kind === 'embedded') {
    allowOnly(d, at, ['kind', 'queryTimeoutMs']);
    return { kind, queryTimeoutMs };
  }
  allowOnly(d, at, ['kind', 'url', 'schema', 'queryTimeoutMs', 'connectTimeoutMs']);
  if (kind === 'postgres') {
    const connectTimeoutMs = int(d.connectTimeoutMs ?? 3_000, `${at}.connectTimeoutMs`, 10, 600_000);
    const url = str(d.url, `${at}.url`);
    if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError(`${at}.url`, 'must be a postgres:// URL');
    const schema = d.schema === undefined ? undefined : str(d.schema, `${at}.schema`);
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError(`${at}.schema`, 'use lowercase letters, digits and underscores (at most 63)');
    }
    return { kind, url, schema, queryTimeoutMs, connectTimeoutMs };
  }
  throw new ConfigError(`${at}.kind`, 'must be "embedded" or "postgres"');
}

/** Parses "HOST:PORT" (IPv6 as "[::1]:PORT"). */
export function parseListen(raw: unknown, at: string): { host: string; port: number } {
  const s = str(raw, at);
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(s);
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535)
    throw new ConfigError(at, `expected HOST:PORT (e.g. 127.0.0.1:8550), got ${JSON.stringify(s)}`);
  return { host: (m[1] ?? m[2])!, port };
}

function obj(v: unknown, at: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(at, 'must be an object');
  return v as Record<string, unknown>;
}
function list(v: unknown, at: string): unknown[] {
  if (!Array.isArray(v)) throw new ConfigError(at, 'must be a list');
  return v;
}
function str(v: unknown, at: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new ConfigError(at, 'must be a non-empty string');
  return v;
}
function bool(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') throw new ConfigError(at, 'must be true or false');
  return v;
}
function int(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ConfigError(at, `must be an integer from ${min} to ${max}`);
  }
  return v;
}
function host(v: unknown, at: string): string {
  const s = str(v, at).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(s)) throw new ConfigError(at, 'must be a host name without scheme or port');
  return s;
}
function prefix(v: unknown, at: string): string {
  const s = str(v, at);
  if (!/^\/[A-Za-z0-9._-]+$/.test(s))
    throw new ConfigError(at, 'must be one path segment starting with "/", e.g. "/mainnet"');
  if (s === '/v3' || s === '/ws' || s === '/api' || s === '/health') throw new ConfigError(at, `"${s}" is reserved`);
  return s;
}
function chainIdOf(v: unknown, at: string): string {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return `0x${v.toString(16)}`;
  if (typeof v === 'string' && /^SN_[A-Z]+$/.test(v)) return `0x${Buffer.from(v, 'ascii').toString('hex')}`;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v)) return v.toLowerCase();
  throw new ConfigError(at, 'must be a non-negative integer, a 0x hex string, or a Starknet name like SN_SEPOLIA');
}
function httpUrl(v: unknown, at: string): string {
  const s = str(v, at);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(at, 'must be an http(s) URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(at, 'must be an http(s) URL');
  return s;
}
function wsUrl(v: unknown, at: string): string {
  const s = str(v, at);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(at, 'must be a ws(s) URL');
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new ConfigError(at, 'must be a ws(s) URL');
  return s;
}
function allowOnly(o: Record<string, unknown>, at: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k))
      throw new ConfigError(at === '(config)' ? k : `${at}.${k}`, `unknown field (known: ${keys.join(', ')})`);
  }
}
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
