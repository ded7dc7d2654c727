import type { ApiKeyRecord } from './KeyStore.js';

/** Schema shared by the embedded (PGlite) and PostgreSQL stores: one SQL dialect. */
export const KEY_SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  key          text PRIMARY KEY,
  secret_hash  text NOT NULL,
  name         text NOT NULL DEFAULT '',
  plan         text NOT NULL DEFAULT 'free',
  dev          boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_dev ON api_keys (dev) WHERE dev;
CREATE TABLE IF NOT EXISTS key_usage (
  key     text NOT NULL REFERENCES api_keys (key),
  metric  text NOT NULL,
  value   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key, metric)
);
`;

export interface KeyRow {
  key: string;
  secret_hash: string;
  name: string;
  plan: string;
  dev: boolean;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

/** Row -> record, for both SQL stores. */
export function rowToRecord(r: KeyRow): ApiKeyRecord {
  return {
    key: r.key,
    secretHash: r.secret_hash,
    name: r.name,
    plan: r.plan,
    dev: r.dev,
    createdAt: new Date(r.created_at),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
  };
}

export const SQL = {
  insert: 'INSERT INTO api_keys (key, secret_hash, name, plan, dev) VALUES ($1, $2, $3, $4, $5) RETURNING *',
  find: 'SELECT * FROM api_keys WHERE key = $1',
  list: 'SELECT * FROM api_keys ORDER BY created_at, key',
  revoke: 'UPDATE api_keys SET revoked_at = now() WHERE key = $1 AND revoked_at IS NULL RETURNING key',
  findDev: 'SELECT * FROM api_keys WHERE dev ORDER BY created_at LIMIT 1',
  addUsage: `INSERT INTO key_usage (key, metric, value) VALUES ($1, $2, $3)
    ON CONFLICT (key, metric) DO UPDATE SET value = key_usage.value + EXCLUDED.value RETURNING value`,
  usage: 'SELECT value FROM key_usage WHERE key = $1 AND metric = $2',
} as const;
