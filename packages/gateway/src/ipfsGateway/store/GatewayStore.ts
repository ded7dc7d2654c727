import type { GatewayMode, GatewayRecord, GatewayTokenRecord } from '../GatewayRecord.js';

/** What a new gateway is stored with. */
export interface NewGateway {
  readonly id: string;
  readonly name: string;
  readonly accountId: string;
  readonly mode: GatewayMode;
  readonly allowedOrigins: readonly string[];
}

/** A change to a gateway: only the fields given change. */
export interface GatewayPatch {
  readonly mode?: GatewayMode;
  readonly allowedOrigins?: readonly string[];
}

/**
 * Where dedicated gateways and their tokens live, beside the keys (the embedded SQLite or
 * PostgreSQL; one contract suite, `gatewayStoreContract.ts`). It also answers the restricted
 * gateway's question, "did an active key of this account pin this CID?", from the IPFS pin
 * records (`ipfs_pins`) and the keys (`api_keys`) of the same database.
 */
export interface GatewayStore {
  /** Stores a new gateway; undefined when its name is taken (names are unique on the gateway). */
  insert(gateway: NewGateway): Promise<GatewayRecord | undefined>;
  find(id: string): Promise<GatewayRecord | undefined>;
  findByName(name: string): Promise<GatewayRecord | undefined>;
  /** Every gateway (of one account when given), oldest first. */
  list(accountId?: string): Promise<GatewayRecord[]>;
  update(id: string, patch: GatewayPatch): Promise<GatewayRecord | undefined>;
  /** Deletes a gateway and its tokens; false when it is unknown. */
  remove(id: string): Promise<boolean>;

  /** Stores a token (its SHA-256 only). */
  insertToken(token: { id: string; gatewayId: string; name: string; tokenHash: string }): Promise<GatewayTokenRecord>;
  listTokens(gatewayId: string): Promise<GatewayTokenRecord[]>;
  /** Deletes one token of a gateway; false when the gateway has no such token. */
  removeToken(gatewayId: string, tokenId: string): Promise<boolean>;
  /** Whether the gateway has a token with this SHA-256 (hex). */
  hasToken(gatewayId: string, tokenHash: string): Promise<boolean>;

  /**
   * Whether an active (not revoked) key of the account pins one of `cids` (the text forms of one
   * CID: its CIDv1 base32 and, for a dag-pb sha2-256 CID, its CIDv0), directly or recursively.
   * With `recursive`, only recursive pins count (a path under the root is then pinned too).
   */
  pinnedByAccount(accountId: string, cids: readonly string[], recursive?: boolean): Promise<boolean>;
  /** The recursive roots the account's active keys pin, newest first, at most `limit`. */
  recursiveRoots(accountId: string, limit: number): Promise<string[]>;
}
