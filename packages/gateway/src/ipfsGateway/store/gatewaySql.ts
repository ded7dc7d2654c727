import type { SqlDialect } from '../../store/SqlConnection.js';
import { SQLITE_NOW } from '../../store/sqliteTime.js';

/**
 * The dedicated gateways' tables, one statement each, in each dialect:
 * - `ipfs_gateways`: one row per gateway (its name unique on the gateway: it is a host name label),
 *   `allowed_origins` as a JSON array of text;
 * - `ipfs_gateway_tokens`: a gateway's tokens, their SHA-256 only.
 * Idempotent; applied by `createSqlGatewayStore`.
 */
export const GATEWAY_SCHEMAS: Record<SqlDialect, readonly string[]> = {
  postgres: [
    `CREATE TABLE IF NOT EXISTS ipfs_gateways (
      id               text PRIMARY KEY,
      name             text NOT NULL UNIQUE,
      account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      mode             text NOT NULL CHECK (mode IN ('restricted', 'open')),
      allowed_origins  text NOT NULL DEFAULT '[]',
      created_at       timestamptz NOT NULL DEFAULT now(),
      seq              bigserial
    )`,
    'CREATE INDEX IF NOT EXISTS ipfs_gateways_account ON ipfs_gateways (account_id)',
    `CREATE TABLE IF NOT EXISTS ipfs_gateway_tokens (
      id          text PRIMARY KEY,
      gateway_id  text NOT NULL REFERENCES ipfs_gateways (id) ON DELETE CASCADE,
      name        text NOT NULL,
      token_hash  text NOT NULL UNIQUE,
      created_at  timestamptz NOT NULL DEFAULT now(),
      seq         bigserial
    )`,
    'CREATE INDEX IF NOT EXISTS ipfs_gateway_tokens_gateway ON ipfs_gateway_tokens (gateway_id)',
  ],
  sqlite: [
    `CREATE TABLE IF NOT EXISTS ipfs_gateways (
      id               text PRIMARY KEY,
      name             text NOT NULL UNIQUE,
      account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      mode             text NOT NULL CHECK (mode IN ('restricted', 'open')),
      allowed_origins  text NOT NULL DEFAULT '[]',
      created_at       integer NOT NULL DEFAULT (${SQLITE_NOW})
    ) STRICT`,
    'CREATE INDEX IF NOT EXISTS ipfs_gateways_account ON ipfs_gateways (account_id)',
    `CREATE TABLE IF NOT EXISTS ipfs_gateway_tokens (
      id          text PRIMARY KEY,
      gateway_id  text NOT NULL REFERENCES ipfs_gateways (id) ON DELETE CASCADE,
      name        text NOT NULL,
      token_hash  text NOT NULL UNIQUE,
      created_at  integer NOT NULL DEFAULT (${SQLITE_NOW})
    ) STRICT`,
    'CREATE INDEX IF NOT EXISTS ipfs_gateway_tokens_gateway ON ipfs_gateway_tokens (gateway_id)',
  ],
};

const GW = 'id, name, account_id, mode, allowed_origins, created_at';
const TOKEN = 'id, gateway_id, name, created_at';

const POSTGRES = {
  insert: `INSERT INTO ipfs_gateways (id, name, account_id, mode, allowed_origins) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (name) DO NOTHING RETURNING ${GW}`,
  find: `SELECT ${GW} FROM ipfs_gateways WHERE id = $1`,
  findByName: `SELECT ${GW} FROM ipfs_gateways WHERE name = $1`,
  list: `SELECT ${GW} FROM ipfs_gateways ORDER BY seq`,
  listByAccount: `SELECT ${GW} FROM ipfs_gateways WHERE account_id = $1 ORDER BY seq`,
  update: `UPDATE ipfs_gateways SET
      mode = CASE WHEN $2::boolean THEN $3 ELSE mode END,
      allowed_origins = CASE WHEN $4::boolean THEN $5 ELSE allowed_origins END
    WHERE id = $1 RETURNING ${GW}`,
  removeTokens: 'DELETE FROM ipfs_gateway_tokens WHERE gateway_id = $1',
  remove: 'DELETE FROM ipfs_gateways WHERE id = $1 RETURNING id',
  insertToken: `INSERT INTO ipfs_gateway_tokens (id, gateway_id, name, token_hash) VALUES ($1, $2, $3, $4) RETURNING ${TOKEN}`,
  listTokens: `SELECT ${TOKEN} FROM ipfs_gateway_tokens WHERE gateway_id = $1 ORDER BY seq`,
  removeToken: 'DELETE FROM ipfs_gateway_tokens WHERE gateway_id = $1 AND id = $2 RETURNING id',
  hasToken: 'SELECT 1 AS n FROM ipfs_gateway_tokens WHERE gateway_id = $1 AND token_hash = $2',
  pinned: `SELECT 1 AS n FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
    WHERE k.account_id = $1 AND k.revoked_at IS NULL AND p.cid IN ($2, $3) LIMIT 1`,
  pinnedRecursive: `SELECT 1 AS n FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
    WHERE k.account_id = $1 AND k.revoked_at IS NULL AND p.cid IN ($2, $3) AND p.type = 'recursive' LIMIT 1`,
  recursiveRoots: `SELECT DISTINCT p.cid, p.created_at FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
    WHERE k.account_id = $1 AND k.revoked_at IS NULL AND p.type = 'recursive'
    ORDER BY p.created_at DESC, p.cid LIMIT $2`,
} as const;

/** The gateway store's statements, one set per dialect (the same parameters in each). */
export const GATEWAY_SQL: Record<SqlDialect, { readonly [K in keyof typeof POSTGRES]: string }> = {
  postgres: POSTGRES,
  sqlite: {
    insert: `INSERT INTO ipfs_gateways (id, name, account_id, mode, allowed_origins) VALUES (?1, ?2, ?3, ?4, ?5)
      ON CONFLICT (name) DO NOTHING RETURNING ${GW}`,
    find: `SELECT ${GW} FROM ipfs_gateways WHERE id = ?1`,
    findByName: `SELECT ${GW} FROM ipfs_gateways WHERE name = ?1`,
    list: `SELECT ${GW} FROM ipfs_gateways ORDER BY rowid`,
    listByAccount: `SELECT ${GW} FROM ipfs_gateways WHERE account_id = ?1 ORDER BY rowid`,
    update: `UPDATE ipfs_gateways SET
        mode = CASE WHEN ?2 THEN ?3 ELSE mode END,
        allowed_origins = CASE WHEN ?4 THEN ?5 ELSE allowed_origins END
      WHERE id = ?1 RETURNING ${GW}`,
    removeTokens: 'DELETE FROM ipfs_gateway_tokens WHERE gateway_id = ?1',
    remove: 'DELETE FROM ipfs_gateways WHERE id = ?1 RETURNING id',
    insertToken: `INSERT INTO ipfs_gateway_tokens (id, gateway_id, name, token_hash) VALUES (?1, ?2, ?3, ?4) RETURNING ${TOKEN}`,
    listTokens: `SELECT ${TOKEN} FROM ipfs_gateway_tokens WHERE gateway_id = ?1 ORDER BY rowid`,
    removeToken: 'DELETE FROM ipfs_gateway_tokens WHERE gateway_id = ?1 AND id = ?2 RETURNING id',
    hasToken: 'SELECT 1 AS n FROM ipfs_gateway_tokens WHERE gateway_id = ?1 AND token_hash = ?2',
    pinned: `SELECT 1 AS n FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
      WHERE k.account_id = ?1 AND k.revoked_at IS NULL AND p.cid IN (?2, ?3) LIMIT 1`,
    pinnedRecursive: `SELECT 1 AS n FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
      WHERE k.account_id = ?1 AND k.revoked_at IS NULL AND p.cid IN (?2, ?3) AND p.type = 'recursive' LIMIT 1`,
    recursiveRoots: `SELECT DISTINCT p.cid, p.created_at FROM ipfs_pins p JOIN api_keys k ON k.key = p.key
      WHERE k.account_id = ?1 AND k.revoked_at IS NULL AND p.type = 'recursive'
      ORDER BY p.created_at DESC, p.cid LIMIT ?2`,
  },
};
