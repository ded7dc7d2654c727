import { SQLITE_NOW } from '../../store/sqliteTime.js';
import type { MFS_ROOT_SQL } from './mfsRootSql.js';

/** The MFS roots table in the embedded SQLite (STRICT; times as epoch ms). One statement each. */
export const SQLITE_MFS_ROOT_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS ipfs_mfs_roots (
    key         text PRIMARY KEY,
    root        text NOT NULL,
    size        integer NOT NULL CHECK (size >= 0),
    version     integer NOT NULL CHECK (version > 0),
    updated_at  integer NOT NULL DEFAULT (${SQLITE_NOW})
  ) STRICT`,
  'CREATE INDEX IF NOT EXISTS ipfs_mfs_roots_root ON ipfs_mfs_roots (root)',
];

/** The MFS root store's statements in SQLite's dialect (the same parameters as PostgreSQL's). */
export const SQLITE_MFS_ROOT_SQL: { readonly [K in keyof typeof MFS_ROOT_SQL]: string } = {
  get: 'SELECT root, size, version FROM ipfs_mfs_roots WHERE key = ?1',
  insert: `INSERT INTO ipfs_mfs_roots (key, root, size, version) VALUES (?1, ?2, ?3, 1)
    ON CONFLICT (key) DO NOTHING RETURNING version`,
  update: `UPDATE ipfs_mfs_roots SET root = ?2, size = ?3, version = version + 1, updated_at = ${SQLITE_NOW}
    WHERE key = ?1 AND version = ?4 RETURNING version`,
  roots: 'SELECT DISTINCT root FROM ipfs_mfs_roots ORDER BY root',
  owners: 'SELECT count(*) AS n FROM ipfs_mfs_roots WHERE root = ?1',
};
