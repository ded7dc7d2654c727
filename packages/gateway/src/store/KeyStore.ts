/** One API key as stored. The secret itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  /** The public key id used in URLs (`/v3/<key>`): 32 lowercase hex characters. */
  readonly key: string;
  /** SHA-256 of the secret, hex. */
  readonly secretHash: string;
  readonly name: string;
  readonly plan: string;
  /** The development key created on first start of the embedded default. */
  readonly dev: boolean;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export type NewApiKey = Pick<ApiKeyRecord, 'key' | 'secretHash' | 'name' | 'plan' | 'dev'>;

/**
 * Where API keys live. Two implementations share one contract suite
 * (`keyStoreContract.ts`): the embedded database (PGlite) and PostgreSQL.
 */
export interface KeyStore {
  /** Stores a new key; rejects a duplicate key id. */
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key (revoked or not), or undefined. */
  find(key: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
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
