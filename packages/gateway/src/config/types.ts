import type { LogLevel } from '../log/createLogger.js';
import type { Plan } from '../plans/Plan.js';

/** The JSON-RPC families a network can belong to. */
export type NetworkFamily = 'eth' | 'starknet';

/** The embedded backends nodegate can start itself. */
export type EmbeddedBackend = 'anvil' | 'starknet-devchain' | 'ipfs-node';

/** One upstream as configured: a URL, or an embedded backend that is started and then used by URL. */
export interface UpstreamSettings {
  readonly name: string;
  /** HTTP JSON-RPC URL (absent when `embedded` is set; filled in at startup). */
  readonly http?: string | undefined;
  readonly ws?: string | undefined;
  readonly embedded?: EmbeddedBackend | undefined;
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** A network: one base URL, chosen by Host header and/or path prefix. */
export interface NetworkSettings {
  readonly name: string;
  readonly family: NetworkFamily;
  /** Chain id as the chain reports it (hex), informational. */
  readonly chainId?: string | undefined;
  /** Dev networks also forward the dev chain's own methods (anvil_*, evm_*, devnet_*). */
  readonly dev: boolean;
  /** Host names (without port) that select this network. */
  readonly hosts: readonly string[];
  /** Path prefix that selects this network, e.g. "/eth-devnet". */
  readonly pathPrefix?: string | undefined;
  readonly upstreams: readonly UpstreamSettings[];
  /**
   * Partner providers (failover protection): used only for the methods marked forwardable, only
   * while every upstream is failing or open, and only for keys whose plan includes it and requests
   * that ask (`Enable-Failover: true`).
   */
  readonly partners: readonly UpstreamSettings[];
  /** How the network routes among its upstreams and recovers from their failures. */
  readonly policy: UpstreamPolicy;
  /** Starknet: the largest getEvents chunk_size served (error 31 above it). */
  readonly maxEventsChunkSize: number;
}

/** Routing and failure handling of one network's upstreams (defaults in `validateConfig.ts`). */
export interface UpstreamPolicy {
  /** Background health probe of every upstream (head, latency, capabilities): its interval. */
  readonly probeIntervalMs: number;
  /** Read retries after every upstream failed once (with backoff, honouring Retry-After, within the deadline). */
  readonly retries: number;
  /** Send a read to a second upstream when the first is slower than its own p95. */
  readonly hedge: boolean;
  /** Circuit breaker: failures in a row that open it, and how long it stays open at first. */
  readonly breakerFailures: number;
  readonly breakerOpenMs: number;
  /**
   * Per-method timeouts (ms) under the upstream's own `timeoutMs`: a call of such a method that
   * runs past it is abandoned as a timeout on that upstream (e.g. `eth_getLogs: 30000`,
   * `eth_chainId: 500`). Methods not listed keep the upstream's timeout.
   */
  readonly methodTimeoutsMs: Readonly<Record<string, number>>;
  /**
   * The share of reads (0 to 0.5) sent to an upstream that is neither the preferred one nor open
   * nor behind it, so every upstream's scores stay fresh (default 0.02).
   */
  readonly exploreShare: number;
  /** How long a method an upstream answered -32601 for is routed around it before it is asked again. */
  readonly capabilityTtlMs: number;
  /**
   * Partners (paid providers) are probed this rarely while the primaries are fine; while every
   * primary is failing, at every probe round.
   */
  readonly partnerProbeIntervalMs: number;
}

/** The IPFS family: one Kubo-compatible upstream behind /api/v0. */
export interface IpfsSettings {
  readonly hosts: readonly string[];
  readonly pathPrefix?: string | undefined;
  readonly upstream: UpstreamSettings;
  /** Commands served under /api/v0 (default: the hosted set, see `src/ipfs/ipfsCommands.ts`). */
  readonly allow: readonly string[];
  /** Largest request body accepted (413 above it). */
  readonly maxRequestBytes: number;
  /** Bytes a key may upload with add, block/put, dag/put, dag/import, object/put (413 above it). */
  readonly maxStoredBytesPerKey: number;
  /** On an upstream `X-Stream-Error` trailer, reset the client connection (for trailer-blind clients). */
  readonly resetOnStreamError: boolean;
}

export type DatabaseSettings =
  | { readonly kind: 'embedded' }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /** Schema holding nodegate's tables (default `public`); several deployments can share a database. */
      readonly schema?: string | undefined;
    };

/** Redis, shared by every gateway instance: limits, and key-change notices (pub/sub). */
export interface RedisSettings {
  readonly url: string;
  /** Prefix of every key and channel nodegate uses (several deployments can share a Redis). */
  readonly prefix: string;
}

/** Limits that protect the gateway and its tenants from each other. */
export interface LimitSettings {
  readonly maxBodyBytes: number;
  readonly maxBatch: number;
  /** Upstream requests one key may have in flight in one gateway process; more wait in line. */
  readonly maxConcurrentPerKey: number;
  /** Requests of one key that may wait for a slot; beyond it 429. */
  readonly maxQueuedPerKey: number;
  /** Time a JSON-RPC request may take end to end (its deadline). */
  readonly requestTimeoutMs: number;
  /** Time a client has to send the request headers. */
  readonly headersTimeoutMs: number;
  /** Time a client has to send a JSON-RPC body (IPFS uploads use an idle timeout instead). */
  readonly bodyTimeoutMs: number;
  /** Idle connections are closed after this. */
  readonly keepAliveTimeoutMs: number;
  readonly ws: {
    /** Open WebSocket connections per key per gateway process (429 on upgrade beyond it). */
    readonly maxConnectionsPerKey: number;
    /** Requests one connection may have unanswered; beyond it the connection is closed (1008). */
    readonly maxInFlightPerConnection: number;
    /** Bytes queued for a client that does not read; beyond it the connection is closed (1008). */
    readonly maxSendBufferBytes: number;
  };
}

/** Logging: the level of the JSON log on stderr, and the access log (one line per finished request). */
export interface LogSettings {
  /** `--log-level` overrides it. Default `warn`. */
  readonly level: LogLevel;
  /** Default false in config files; the embedded default (`npm start` without a config) turns it on. */
  readonly access: boolean;
}

/** The finality-aware response cache (see `src/cache/`). */
export interface CacheSettings {
  readonly enabled: boolean;
  /** `memory`: in each gateway process, bounded by `maxBytes`; `redis`: shared, in the configured Redis. */
  readonly kind: 'memory' | 'redis';
  readonly maxBytes: number;
  /** How often each Ethereum network's head and finalized block are read (reorg detection). */
  readonly headPollMs: number;
}

/** Prometheus metrics at `/metrics`. */
export interface MetricsSettings {
  readonly enabled: boolean;
  /** `admin-token`: the scraper sends `Authorization: Bearer <admin token>`; `none`: open. */
  readonly auth: 'admin-token' | 'none';
  /** A listener of its own for `/metrics` (default: the main listener). */
  readonly listen?: { readonly host: string; readonly port: number } | undefined;
}

/** The whole gateway configuration, validated once at startup and frozen. */
export interface GatewayConfig {
  readonly listen: { readonly host: string; readonly port: number };
  /** Public base address used when printing URLs (defaults to http://<listen>). */
  readonly publicUrl?: string | undefined;
  readonly dataDir: string;
  readonly database: DatabaseSettings;
  readonly limits: LimitSettings;
  /** Plans by name (the defaults of `src/plans/Plan.ts`, overridden and extended by `plans:`). */
  readonly plans: Readonly<Record<string, Plan>>;
  /** When set, limits live in Redis and key changes reach every instance through it. */
  readonly redis?: RedisSettings | undefined;
  readonly networks: readonly NetworkSettings[];
  readonly ipfs?: IpfsSettings | undefined;
  /** Create (once) and print a development API key. On for the embedded default. */
  readonly devKey: boolean;
  readonly log: LogSettings;
  readonly metrics: MetricsSettings;
  readonly cache: CacheSettings;
}
