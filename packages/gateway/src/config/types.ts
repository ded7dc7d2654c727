import type { LogFormat, LogLevel } from '../log/createLogger.js';
import type { IpfsGatewaySettings } from '../ipfsGateway/config/IpfsGatewaySettings.js';
import type { Plan } from '../plans/Plan.js';

/** The JSON-RPC families a network can belong to. */
export type NetworkFamily = 'eth' | 'starknet';

/** The embedded backends nodegate can start itself. */
export type EmbeddedBackend = 'anvil' | 'starknet-devchain' | 'ipfs-node';

/** Settings of an embedded dev chain (anvil, the Starknet dev chain). */
export interface EmbeddedChainSettings {
  /**
   * Seconds between blocks, mined empty or not (anvil's `--block-time`, the dev chain's
   * `--block-interval`); transactions wait for the next one. Undefined: on demand (one block per
   * transaction, none without one). `nodegate start --block-time` sets it for both chains.
   */
  readonly blockTime: number | undefined;
}

/** Settings of the embedded backends nodegate starts itself, by backend name (`embedded:` in the config). */
export interface EmbeddedSettings {
  /**
   * A new embedded chain or IPFS repo starts with the welcome state the root README names (the
   * storage contract and a transfer on anvil, a transfer and a declared class on the dev chain, a
   * file pinned by the development key on the IPFS node; see `embedded/welcome/`), once per data
   * directory. On in the embedded default (`npm start` without a config), off in config files.
   */
  readonly welcome: boolean;
  readonly anvil: EmbeddedChainSettings;
  readonly 'starknet-devchain': EmbeddedChainSettings;
}

/** One upstream as configured: a URL, or an embedded backend that is started and then used by URL. */
export interface UpstreamSettings {
  readonly name: string;
  /** HTTP JSON-RPC URL (absent when `embedded` is set; filled in at startup). */
  readonly http?: string | undefined;
  readonly ws?: string | undefined;
  readonly embedded?: EmbeddedBackend | undefined;
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The HTTP client its calls go through: `nodegate` (the default, `upstream/createJsonConnections.ts`)
   * or `undici` (its pool: for an upstream that needs what only undici does).
   */
  readonly client?: 'nodegate' | 'undici' | undefined;
  /** What the provider behind it allows (its plan): nodegate never sends it more (see {@link UpstreamRateLimit}). */
  readonly rateLimit?: UpstreamRateLimit | undefined;
  /**
   * The widest block range (both ends counted) one `eth_getLogs` or `starknet_getEvents` to it
   * may name (a provider's limit, e.g. 2000): a wider one goes to an upstream that takes it, or
   * is split into sub-ranges (`network/layers/split/`). Absent: none known (a refusal teaches it).
   */
  readonly getLogsMaxBlockRange?: number | undefined;
  /** It serves state for every block (an archive node). Absent with `historyBlocks`: learned at start and on recovery. */
  readonly archive?: boolean | undefined;
  /** It serves state for the latest this many blocks only (a pruned node; geth keeps 128). */
  readonly historyBlocks?: number | undefined;
}

/**
 * Consensus for the reads that must be right (`consensus:` of a network, by method pattern):
 * the call goes to `participants` upstreams at once, and the answer is the one `agree` of them
 * gave (compared canonically, `ignoreFields` left out); otherwise `onDispute` decides.
 */
export interface ConsensusRule {
  /** A method name, or a pattern with `*` (`eth_getBlockBy*`, `*`) as the config's key. */
  readonly methods: string;
  readonly participants: number;
  readonly agree: number;
  /** Fields left out of the comparison, by method pattern: dotted paths, `*` for any key or index. */
  readonly ignoreFields: Readonly<Record<string, readonly string[]>>;
  /** `error`: the client gets -32603 CONSENSUS_DISPUTE; `mostCommon`: the answer most gave; `bestHead`: the answer of the participant at the highest head. */
  readonly onDispute: 'error' | 'mostCommon' | 'bestHead';
  /** Disputes in a row an upstream is on the losing side of before it sits out (default 3). */
  readonly sitOutAfter: number;
  /** How long it sits out (no traffic at all; default 60,000 ms). */
  readonly sitOutMs: number;
}

/**
 * An upstream's request budget (`rateLimit: { requestsPerSecond: 25 }` or `{ creditsPerSecond:
 * 500 }`), counted across instances in Redis when configured. Calls over it go to another
 * upstream or wait within their deadline.
 */
export interface UpstreamRateLimit {
  /** `requests`: each request counts 1; `credits`: each counts its method's credit cost (the method table's). */
  readonly unit: 'requests' | 'credits';
  readonly perSecond: number;
  /** A 429 from the provider tightens the budget (to 80 %, at most once a second, down to 10 %); it relaxes by 5 % of the configured rate every 10 s without one (default true). */
  readonly autoTune: boolean;
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
  /**
   * The widest block range a client may ask `eth_getLogs` (and `starknet_getEvents`) for, both
   * ends counted: wider is refused before any upstream is asked (-32005 with the range to retry
   * with). A plan's `maxLogsBlockRange` replaces it for its keys. Absent: no cap.
   */
  readonly maxLogsBlockRange?: number | undefined;
  /**
   * The most logs one `eth_getLogs` answer may hold (Infura's 10,000): more is answered -32005
   * with the range that fits. A plan's `maxLogsResults` replaces it. Default 10,000; 0: no cap.
   */
  readonly maxLogsResults: number;
  /** Consensus rules by method pattern (default none): see {@link ConsensusRule}. */
  readonly consensus: readonly ConsensusRule[];
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
  /**
   * In-flight multiplexing: identical reads (the method table's `multiplexable` rows, same
   * canonical params) in flight at the same time share one upstream call (default true).
   */
  readonly multiplex: boolean;
  /**
   * HTTP answers carry `X-Nodegate-Upstream`, `-Attempts`, `-Cache`, `-Multiplexed` and `-Split`
   * (names and counts only: never a URL or a key). Default true.
   */
  readonly diagnosticHeaders: boolean;
  /** Sub-requests of one split `eth_getLogs` / `starknet_getEvents` in flight at once (default 8). */
  readonly splitConcurrency: number;
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
  /** Credits charged for each whole MiB an answer of content carries (cat, get, ls, block/get, dag/get, dag/export). */
  readonly creditsPerServedMiB: number;
  /** The scheduled collection of what no key pins. */
  readonly gc: IpfsGcSettings;
  /** Dedicated gateways: the content keys pinned, served to browsers (`ipfs.gateways`; validated configs always have them). */
  readonly gateways?: IpfsGatewaySettings | undefined;
}

/** The IPFS route's scheduled garbage collection of the upstream's repo. */
export interface IpfsGcSettings {
  /** How often the upstream's unpinned blocks are collected (`repo/gc`); 0 turns it off. */
  readonly intervalMs: number;
  /** The longest one collection may take (pin reconciliation and `repo/gc`). */
  readonly timeoutMs: number;
  /**
   * The gateway's pin records decide what the node keeps: a pin on the node that no key owns
   * (seen unowned at two collections in a row) is removed. On by default for the embedded node;
   * leave it off for a node other clients pin on.
   */
  readonly unpinUnowned: boolean;
}

export type DatabaseSettings =
  | {
      readonly kind: 'embedded';
      /** A statement's deadline (default 5,000 ms): past it the caller gets a 503. */
      readonly queryTimeoutMs: number;
    }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /** Schema holding nodegate's tables (default `public`); several deployments can share a database. */
      readonly schema?: string | undefined;
      /** A statement's deadline, with its wait for a connection (default 5,000 ms): past it a 503. */
      readonly queryTimeoutMs: number;
      /** A new connection's deadline (default 3,000 ms). */
      readonly connectTimeoutMs: number;
    };

/** Redis, shared by every gateway instance: limits, and key-change notices (pub/sub). */
export interface RedisSettings {
  readonly url: string;
  /** Prefix of every key and channel nodegate uses (several deployments can share a Redis). */
  readonly prefix: string;
  /** A command's deadline (default 1,000 ms); past it Redis counts as away (limits go local). */
  readonly commandTimeoutMs: number;
  /** A connection attempt's deadline (default 2,000 ms). */
  readonly connectTimeoutMs: number;
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
  /**
   * Credits an invalid or unknown call costs (parse error, invalid request, unknown method or
   * IPFS command, invalid params), so that errors count against a key's rate and day too.
   */
  readonly invalidCallCredits: number;
  /** Live eth filters (`eth_new*Filter`) one key may hold, across instances with Redis; beyond it -32005. */
  readonly maxFiltersPerKey: number;
  /** An eth filter not read for this long is removed (here and on its upstream); the nodes' own timeout is 5 minutes. */
  readonly filterTimeoutMs: number;
  readonly ws: {
    /** Open WebSocket connections per key per gateway process (429 on upgrade beyond it). */
    readonly maxConnectionsPerKey: number;
    /** Requests one connection may have unanswered; beyond it the connection is closed (1008). */
    readonly maxInFlightPerConnection: number;
    /** Bytes queued for a client that does not read; beyond it the connection is closed (1008). */
    readonly maxSendBufferBytes: number;
  };
}

/** Logging: the log's level and format, and the access log (one JSON line per finished request). */
export interface LogSettings {
  /** `--log-level` overrides it. Default `warn`. */
  readonly level: LogLevel;
  /**
   * `text` (default): warnings and errors one human line each on stderr, the access log in a file;
   * `json`: every line a JSON object on stdout (the access log too, unless `accessFile` is set).
   * `--log-format` overrides it.
   */
  readonly format: LogFormat;
  /** Default false in config files; the embedded default (`npm start` without a config) turns it on. */
  readonly access: boolean;
  /** The access log's file, relative to the data directory (default `logs/access.log` with the `text` format). */
  readonly accessFile: string | undefined;
  /** Past this size the access log file is rotated (default 10 MiB). */
  readonly accessFileMaxBytes: number;
  /** Rotated files kept (`access.log.1` …; default 2). */
  readonly accessFileKeep: number;
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

/**
 * HTTPS and WSS on the gateway's listeners (`tls:`, or `nodegate start --tls-cert --tls-key`):
 * PEM files, checked at startup (readable, parseable, the key matches the certificate) and read
 * again on SIGHUP.
 */
export interface TlsSettings {
  /** The certificate in PEM, the server's first, then any intermediates (e.g. `fullchain.pem`); an absolute path. */
  readonly certFile: string;
  /** Its private key in PEM, unencrypted; an absolute path. */
  readonly keyFile: string;
}

/** The whole gateway configuration, validated once at startup and frozen. */
export interface GatewayConfig {
  readonly listen: { readonly host: string; readonly port: number };
  /** Public base address used when printing URLs (defaults to http(s)://<listen>). */
  readonly publicUrl?: string | undefined;
  /** When set, every listener serves HTTPS and WSS with this certificate (plain HTTP otherwise). */
  readonly tls?: TlsSettings | undefined;
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
  /** The embedded backends' own settings (the welcome state, block times of the dev chains). */
  readonly embedded: EmbeddedSettings;
  readonly log: LogSettings;
  readonly metrics: MetricsSettings;
  readonly cache: CacheSettings;
  /**
   * Reverse proxies (addresses and CIDR ranges) whose `X-Forwarded-For` / `X-Forwarded-Proto`
   * are believed; empty: none (those headers are ignored).
   */
  readonly trustedProxies: readonly string[];
  /**
   * Gateway processes on this machine (`workers:`, `nodegate start --workers N`): `auto` (the
   * default) is one per core when the config has PostgreSQL and Redis, else 1; more than 1 needs
   * `redis` (limits, filters, sign-in counts and key changes are shared through it). See
   * `src/cluster/`.
   */
  readonly workers: number | 'auto';
}
