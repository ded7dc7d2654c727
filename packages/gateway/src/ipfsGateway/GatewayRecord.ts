/**
 * What a dedicated gateway serves when a request carries no access of its own:
 * - `restricted` (the default): only content that an active key of the gateway's account pinned
 *   (a pinned CID, a block under a recursive pin, or a path under a pinned root); anything else is
 *   refused (403) before anything is asked of the IPFS node;
 * - `open`: any CID the node has or can fetch.
 * A valid gateway token or an allowed origin opens a restricted gateway for that request.
 */
export type GatewayMode = 'restricted' | 'open';

/** The gateway modes, for validation and help texts. */
export const GATEWAY_MODES: readonly GatewayMode[] = ['restricted', 'open'];

/**
 * One dedicated gateway as stored. Gateways belong to an account (not to a key): the URL a dApp
 * puts in `<img src>` outlives the rotation and revocation of the keys that pinned the content,
 * serves what every key of the account pinned, and its bandwidth is the account's.
 */
export interface GatewayRecord {
  /** `gw_` and 24 hex digits. */
  readonly id: string;
  /** A DNS label: the host `<name>.ipfs.<domain>` and the path `/ipfs-gateway/<name>/`; unique on the gateway. */
  readonly name: string;
  readonly accountId: string;
  readonly mode: GatewayMode;
  /**
   * Origins whose pages may load anything through a restricted gateway (`https://app.example.com`,
   * `app.example.com`, `*.example.com`, as API keys' `allowedOrigins`): the request's `Origin`, else
   * its `Referer`'s origin, must match one.
   */
  readonly allowedOrigins: readonly string[];
  readonly createdAt: Date;
}

/** A gateway token as listed (its secret is shown once, at creation; only its SHA-256 is stored). */
export interface GatewayTokenRecord {
  /** `gwt_` and 16 hex digits. */
  readonly id: string;
  readonly gatewayId: string;
  readonly name: string;
  readonly createdAt: Date;
}

/** A gateway name: 3 to 32 lower-case letters, digits and inner dashes (one DNS label, never a CID's length). */
export const GATEWAY_NAME = /^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])$/;

/** At most this many gateways per account. */
export const MAX_GATEWAYS_PER_ACCOUNT = 20;
/** At most this many tokens per gateway. */
export const MAX_TOKENS_PER_GATEWAY = 20;
/** At most this many allowed origins per gateway. */
export const MAX_GATEWAY_ORIGINS = 30;
