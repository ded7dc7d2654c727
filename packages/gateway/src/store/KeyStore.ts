import type { KeySettings } from '../keys/KeySettings.js';

/** One API key as stored. The secret itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  /** The public key id used in URLs (`/v3/<key>`): 32 lowercase hex characters. */
  readonly key: string;
  /** SHA-256 of the secret, hex. */
  readonly secretHash: string;
  readonly name: string;
  /** The account that holds the key. */
  readonly accountId: string;
  /** The key's own plan, overriding its account's; null to use the account's. */
  readonly plan: string | null;
  /** The account's plan (read with the key, so one lookup authenticates a request). */
  readonly accountPlan: string;
  readonly settings: KeySettings;
  /** The development key created on first start of the embedded default. */
  readonly dev: boolean;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** What a new key is stored with; `settings` default to none (nothing restricted). */
export interface NewApiKey {
  readonly key: string;
  readonly secretHash: string;
  readonly name: string;
  readonly accountId: string;
  readonly plan: string | null;
  readonly dev: boolean;
  readonly settings?: KeySettings;
}

/** A change to a key: only the fields given change. */
export interface ApiKeyPatch {
  readonly name?: string;
  readonly plan?: string | null;
  readonly settings?: KeySettings;
}

/**
 * Where API keys live. Two implementations share one contract suite
 * (`keyStoreContract.ts`): the embedded database (SQLite) and PostgreSQL.
 */
export interface KeyStore {
  /** Stores a new key; rejects a duplicate key id or an unknown account. */
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key (revoked or not), or undefined. */
  find(key: string): Promise<ApiKeyRecord | undefined>;
  /** Every key (of one account when given), oldest first. */
  list(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Changes a key's name, plan override or settings; undefined when the key is unknown. */
  update(key: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined>;
  /** Marks a key revoked; false when it is unknown or already revoked. */
  revoke(key: string): Promise<boolean>;
  /** The development key, if one was created. */
  findDevKey(): Promise<ApiKeyRecord | undefined>;
  /** Adds `delta` to a key's usage counter (e.g. `ipfs_stored_bytes`) and returns the new value. */
  addUsage(key: string, metric: string, delta: number): Promise<number>;
  /** A key's usage counter (0 when never counted). */
  usage(key: string, metric: string): Promise<number>;
  close(): Promise<void>;
}
