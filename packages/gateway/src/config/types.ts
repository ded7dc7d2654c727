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
  /** Starknet: the largest getEvents chunk_size served (error 31 above it). */
  readonly maxEventsChunkSize: number;
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
}
