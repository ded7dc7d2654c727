import { type KeySettings, OPEN_SETTINGS } from '../keys/KeySettings.js';
import type { ApiKeyRecord } from './KeyStore.js';
import type { SqlDialect } from './SqlConnection.js';
import { SQLITE_NOW } from './sqliteTime.js';

/** The account every key created before accounts existed (and the operator's keys) belongs to. */
export const OPERATOR_ACCOUNT_ID = 'operator';

/**
 * The PostgreSQL schema of keys and accounts (PostgreSQL, and PGlite data directories of earlier
 * versions, which `migratePgliteDataDir` brings to it before copying them): applied at every
 * open and idempotent. It also migrates a data directory from before accounts existed:
 * `api_keys` gains `account_id` (old keys move to the operator account; their old plan,
 * `free` or `dev`, stays as their override) and `settings`. One statement list run as one
 * implicit transaction under an advisory lock, so gateways sharing a PostgreSQL database can
 * start together.
 */
export const SCHEMA = `
SELECT pg_advisory_xact_lock(8550001);
CREATE TABLE IF NOT EXISTS accounts (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  plan        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO accounts (id, name, plan) VALUES ('${OPERATOR_ACCOUNT_ID}', 'operator', 'team') ON CONFLICT (id) DO NOTHING;
CREATE TABLE IF NOT EXISTS users (
  id             text PRIMARY KEY,
  email          text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash  text,
  operator       boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS memberships (
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX IF NOT EXISTS memberships_user ON memberships (user_id);
CREATE TABLE IF NOT EXISTS sessions (
  id_hash     text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_token  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS sign_in_tokens (
  token_hash  text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
-- an owner's invitation to join an account: only the token's SHA-256 is stored; used once
CREATE TABLE IF NOT EXISTS invitations (
  token_hash   text PRIMARY KEY,
  id           text NOT NULL UNIQUE,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email        text NOT NULL CHECK (email = lower(email) AND length(email) <= 320),
  role         text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  invited_by   text REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  accepted_by  text REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS invitations_account ON invitations (account_id, email);
CREATE TABLE IF NOT EXISTS admin_tokens (
  token_hash  text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS api_keys (
  key          text PRIMARY KEY,
  secret_hash  text NOT NULL,
  name         text NOT NULL DEFAULT '',
  plan         text,
  dev          boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS account_id text REFERENCES accounts (id);
-- creation order when two rows share a timestamp (PGlite's clock ticks in milliseconds)
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS seq bigserial;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS seq bigserial;
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS settings jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE api_keys ALTER COLUMN plan DROP NOT NULL;
ALTER TABLE api_keys ALTER COLUMN plan DROP DEFAULT;
UPDATE api_keys SET account_id = '${OPERATOR_ACCOUNT_ID}' WHERE account_id IS NULL;
ALTER TABLE api_keys ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX IF NOT EXISTS api_keys_dev ON api_keys (dev) WHERE dev;
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id, created_at);
CREATE TABLE IF NOT EXISTS key_usage (
  key     text NOT NULL REFERENCES api_keys (key),
  metric  text NOT NULL,
  value   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key, metric)
);
`;

/** The pre-accounts schema (for migration tests): what data directories from before hold. */
export const LEGACY_KEY_SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  key          text PRIMARY KEY,
  secret_hash  text NOT NULL,
  name         text NOT NULL DEFAULT '',
  plan         text NOT NULL DEFAULT 'free',
  dev          boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE TABLE IF NOT EXISTS key_usage (
  key     text NOT NULL REFERENCES api_keys (key),
  metric  text NOT NULL,
  value   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key, metric)
);
`;

const NOW = `(${SQLITE_NOW})`;

/**
 * The same tables in the embedded SQLite database, as statements (applied in one transaction at
 * every open; idempotent). Times are epoch milliseconds (`integer`), booleans 0/1, settings JSON
 * text; creation order among equal times is the rowid's. The tables are created in their current
 * shape (there is no older SQLite schema: older data directories held PGlite, and are migrated).
 */
export const SQLITE_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS accounts (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    plan        text NOT NULL,
    created_at  integer NOT NULL DEFAULT ${NOW}
  )`,
  `INSERT INTO accounts (id, name, plan) VALUES ('${OPERATOR_ACCOUNT_ID}', 'operator', 'team') ON CONFLICT (id) DO NOTHING`,
  `CREATE TABLE IF NOT EXISTS users (
    id             text PRIMARY KEY,
    email          text NOT NULL UNIQUE CHECK (email = lower(email)),
    password_hash  text,
    operator       integer NOT NULL DEFAULT 0 CHECK (operator IN (0, 1)),
    created_at     integer NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE TABLE IF NOT EXISTS memberships (
    account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
    created_at  integer NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (account_id, user_id)
  )`,
  'CREATE INDEX IF NOT EXISTS memberships_user ON memberships (user_id)',
  `CREATE TABLE IF NOT EXISTS sessions (
    id_hash     text PRIMARY KEY,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token  text NOT NULL,
    created_at  integer NOT NULL DEFAULT ${NOW},
    expires_at  integer NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id)',
  `CREATE TABLE IF NOT EXISTS sign_in_tokens (
    token_hash  text PRIMARY KEY,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  integer NOT NULL DEFAULT ${NOW},
    expires_at  integer NOT NULL,
    used_at     integer
  )`,
  `CREATE TABLE IF NOT EXISTS invitations (
    token_hash   text PRIMARY KEY,
    id           text NOT NULL UNIQUE,
    account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email        text NOT NULL CHECK (email = lower(email) AND length(email) <= 320),
    role         text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
    invited_by   text REFERENCES users (id) ON DELETE SET NULL,
    created_at   integer NOT NULL DEFAULT ${NOW},
    expires_at   integer NOT NULL,
    accepted_at  integer,
    accepted_by  text REFERENCES users (id) ON DELETE SET NULL
  )`,
  'CREATE INDEX IF NOT EXISTS invitations_account ON invitations (account_id, email)',
  `CREATE TABLE IF NOT EXISTS admin_tokens (
    token_hash  text PRIMARY KEY,
    name        text NOT NULL,
    created_at  integer NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE TABLE IF NOT EXISTS api_keys (
    key          text PRIMARY KEY,
    secret_hash  text NOT NULL,
    name         text NOT NULL DEFAULT '',
    account_id   text NOT NULL REFERENCES accounts (id),
    plan         text,
    dev          integer NOT NULL DEFAULT 0 CHECK (dev IN (0, 1)),
    settings     text NOT NULL DEFAULT '{}',
    created_at   integer NOT NULL DEFAULT ${NOW},
    revoked_at   integer
  )`,
  'CREATE INDEX IF NOT EXISTS api_keys_dev ON api_keys (dev) WHERE dev',
  'CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id, created_at)',
  `CREATE TABLE IF NOT EXISTS key_usage (
    key     text NOT NULL REFERENCES api_keys (key),
    metric  text NOT NULL,
    value   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (key, metric)
  )`,
];

export interface KeyRow {
  key: string;
  secret_hash: string;
  name: string;
  account_id: string;
  plan: string | null;
  account_plan: string;
  settings: Partial<KeySettings> | string | null;
  /** boolean (PostgreSQL) or 0/1 (SQLite) */
  dev: boolean | number;
  /** Date (PostgreSQL), epoch ms (SQLite) */
  created_at: Date | string | number;
  revoked_at: Date | string | number | null;
}

/** Row -> record, for both dialects. Settings stored before a field existed get its default. */
export function rowToRecord(r: KeyRow): ApiKeyRecord {
  const stored = typeof r.settings === 'string' ? (JSON.parse(r.settings) as Partial<KeySettings>) : r.settings;
  return {
    key: r.key,
    secretHash: r.secret_hash,
    name: r.name,
    accountId: r.account_id,
    plan: r.plan,
    accountPlan: r.account_plan,
    settings: { ...OPEN_SETTINGS, ...(stored ?? {}) },
    dev: Boolean(r.dev),
    createdAt: new Date(r.created_at),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
  };
}

const SELECT_KEY = 'SELECT k.*, a.plan AS account_plan FROM api_keys k JOIN accounts a ON a.id = k.account_id';
const RETURN_KEY = 'SELECT k.*, a.plan AS account_plan FROM k JOIN accounts a ON a.id = k.account_id';
/** SQLite: the changed key with its account's plan, from the statement that changed it. */
const RETURNING_KEY = 'RETURNING *, (SELECT a.plan FROM accounts a WHERE a.id = api_keys.account_id) AS account_plan';

/** The KeyStore's statements, one set per dialect (the same parameters in each). */
export const KEY_SQL = {
  postgres: {
    insert: `WITH k AS (
        INSERT INTO api_keys (key, secret_hash, name, account_id, plan, dev, settings)
        VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING *)
      ${RETURN_KEY}`,
    find: `${SELECT_KEY} WHERE k.key = $1`,
    list: `${SELECT_KEY} ORDER BY k.created_at, k.seq`,
    listByAccount: `${SELECT_KEY} WHERE k.account_id = $1 ORDER BY k.created_at, k.seq`,
    update: `WITH k AS (
        UPDATE api_keys SET
          name = CASE WHEN $2::boolean THEN $3 ELSE name END,
          plan = CASE WHEN $4::boolean THEN $5 ELSE plan END,
          settings = CASE WHEN $6::boolean THEN $7::jsonb ELSE settings END
        WHERE key = $1 RETURNING *)
      ${RETURN_KEY}`,
    revoke: 'UPDATE api_keys SET revoked_at = now() WHERE key = $1 AND revoked_at IS NULL RETURNING key',
    findDev: `${SELECT_KEY} WHERE k.dev ORDER BY k.created_at LIMIT 1`,
    addUsage: `INSERT INTO key_usage (key, metric, value) VALUES ($1, $2, $3)
      ON CONFLICT (key, metric) DO UPDATE SET value = key_usage.value + EXCLUDED.value RETURNING value`,
    usage: 'SELECT value FROM key_usage WHERE key = $1 AND metric = $2',
  },
  sqlite: {
    insert: `INSERT INTO api_keys (key, secret_hash, name, account_id, plan, dev, settings)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ${RETURNING_KEY}`,
    find: `${SELECT_KEY} WHERE k.key = ?1`,
    list: `${SELECT_KEY} ORDER BY k.created_at, k.rowid`,
    listByAccount: `${SELECT_KEY} WHERE k.account_id = ?1 ORDER BY k.created_at, k.rowid`,
    update: `UPDATE api_keys SET
        name = CASE WHEN ?2 THEN ?3 ELSE name END,
        plan = CASE WHEN ?4 THEN ?5 ELSE plan END,
        settings = CASE WHEN ?6 THEN ?7 ELSE settings END
      WHERE key = ?1 ${RETURNING_KEY}`,
    revoke: `UPDATE api_keys SET revoked_at = ${SQLITE_NOW} WHERE key = ?1 AND revoked_at IS NULL RETURNING key`,
    findDev: `${SELECT_KEY} WHERE k.dev ORDER BY k.created_at, k.rowid LIMIT 1`,
    addUsage: `INSERT INTO key_usage (key, metric, value) VALUES (?1, ?2, ?3)
      ON CONFLICT (key, metric) DO UPDATE SET value = key_usage.value + excluded.value RETURNING value`,
    usage: 'SELECT value FROM key_usage WHERE key = ?1 AND metric = ?2',
  },
} as const satisfies Record<SqlDialect, Record<string, string>>;
