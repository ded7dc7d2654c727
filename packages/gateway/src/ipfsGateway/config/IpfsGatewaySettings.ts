/** Dedicated IPFS gateways (`ipfs.gateways`): where they are served and how long content may take. */
export interface IpfsGatewaySettings {
  /** Dedicated gateways are served (default true). */
  readonly enabled: boolean;
  /** The path form, which needs no DNS: `<pathPrefix>/<name>/ipfs/<cid>/…` (default `/ipfs-gateway`). */
  readonly pathPrefix: string;
  /**
   * The host form, for operators with wildcard DNS: `<name>.ipfs.<domain>` (a path gateway) and
   * `<cid>.ipfs.<name>.ipfs.<domain>` (its subdomain gateway: each root its own browser origin).
   * Absent: the path form only. The embedded default serves `localhost` (browsers resolve
   * `*.localhost` to this machine).
   */
  readonly domain: string | undefined;
  /**
   * How long content may take to be found before the answer is 504 (the node's `block/get` of the
   * root and the path), and the longest a streamed answer may wait for its next block before it
   * is stopped (default 30 s).
   */
  readonly timeoutMs: number;
  /** Credits each gateway request costs, against the gateway's own rate and daily limits on its account's plan (default 1). */
  readonly requestCredits: number;
  /** The most entries a generated directory listing shows (default 10,000). */
  readonly maxListingEntries: number;
  /**
   * Memory for small whole files already served, shared by every gateway (default 32 MiB; 0:
   * none): a warm read answers from it without asking the node. Access is decided before it is
   * looked in, as for any read.
   */
  readonly fileCacheBytes: number;
  /** The largest file kept there (default 2 MiB); larger ones are always streamed from the node. */
  readonly fileCacheMaxFileBytes: number;
  /**
   * Reads one account's gateways may have in flight at once, on this instance (default 128): one
   * account's flood of slow reads cannot take every connection to the node from the others.
   */
  readonly maxConcurrentPerAccount: number;
  /** Reads of one account waiting for a slot (default 1,000, in order); past that, 429. */
  readonly maxQueuedPerAccount: number;
}

/** The settings when `ipfs.gateways` is not given. */
export const DEFAULT_GATEWAY_SETTINGS: IpfsGatewaySettings = Object.freeze({
  enabled: true,
  pathPrefix: '/ipfs-gateway',
  domain: undefined,
  timeoutMs: 30_000,
  requestCredits: 1,
  maxListingEntries: 10_000,
  fileCacheBytes: 32 * 1024 * 1024,
  fileCacheMaxFileBytes: 2 * 1024 * 1024,
  maxConcurrentPerAccount: 128,
  maxQueuedPerAccount: 1_000,
});
