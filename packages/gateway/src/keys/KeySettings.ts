/** A JWT public key registered on an API key (RS256 or ES256), used to verify `Authorization: Bearer`. */
export interface JwtPublicKey {
  /** Name the key is registered under; a token's `kid` header selects it. */
  readonly name: string;
  /** PEM of the public key (SPKI, `-----BEGIN PUBLIC KEY-----`). */
  readonly pem: string;
}

/**
 * The security settings of one API key. Empty lists allow everything of their kind. Lists of
 * different kinds must all pass; within one list any entry may match.
 */
export interface KeySettings {
  /** Origins (`https://app.example.com`, `app.example.com`, `*.example.com`). */
  readonly allowedOrigins: readonly string[];
  /** Substrings of the User-Agent header. */
  readonly allowedUserAgents: readonly string[];
  /** Contract addresses (Ethereum 20-byte hex or Starknet felts), for the methods that name one. */
  readonly allowedContracts: readonly string[];
  /** JSON-RPC method names (and IPFS command names such as `cat` or `pin/add`). */
  readonly allowedMethods: readonly string[];
  /** Every request must carry the key's secret (HTTP basic `:SECRET`, on WebSocket the same header). */
  readonly requireSecret: boolean;
  /** Up to {@link MAX_JWT_KEYS} public keys that verify Bearer tokens. */
  readonly jwtKeys: readonly JwtPublicKey[];
  /** Every request must carry a valid Bearer token signed by one of `jwtKeys`. */
  readonly requireJwt: boolean;
  /** Per-key limits below the plan's (null: the plan's). */
  readonly creditsPerSecond: number | null;
  readonly creditsPerDay: number | null;
  /**
   * Failover protection for every request of this key, as if each sent `Enable-Failover: true`
   * (only where the key's plan includes failover protection).
   */
  readonly enableFailover: boolean;
}

/** At most this many entries per allowlist. */
export const MAX_ALLOWLIST_ENTRIES = 30;
/** At most this many JWT public keys per API key. */
export const MAX_JWT_KEYS = 3;

/** The settings of a new key: nothing restricted. */
export const OPEN_SETTINGS: KeySettings = Object.freeze({
  allowedOrigins: [],
  allowedUserAgents: [],
  allowedContracts: [],
  allowedMethods: [],
  requireSecret: false,
  jwtKeys: [],
  requireJwt: false,
  creditsPerSecond: null,
  creditsPerDay: null,
  enableFailover: false,
});
