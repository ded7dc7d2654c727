/**
 * The MFS roots table in PostgreSQL's dialect (PostgreSQL, and PGlite): one row per key, the
 * root replaced by compare-and-set on `version`. One statement each.
 */
export const MFS_ROOT_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS ipfs_mfs_roots (
    key         text PRIMARY KEY,
    root        text NOT NULL,
    size        bigint NOT NULL CHECK (size >= 0),
    version     bigint NOT NULL CHECK (version > 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX IF NOT EXISTS ipfs_mfs_roots_root ON ipfs_mfs_roots (root)',
];

/** The MFS root store's statements in PostgreSQL's dialect. */
export const MFS_ROOT_SQL = {
  get: 'SELECT root, size, version FROM ipfs_mfs_roots WHERE key = $1',
  // version 0: the key has no row yet; a concurrent first change makes this insert nothing
  insert: `INSERT INTO ipfs_mfs_roots (key, root, size, version) VALUES ($1, $2, $3, 1)
    ON CONFLICT (key) DO NOTHING RETURNING version`,
  update: `UPDATE ipfs_mfs_roots SET root = $2, size = $3, version = version + 1, updated_at = now()
    WHERE key = $1 AND version = $4 RETURNING version`,
  roots: 'SELECT DISTINCT root FROM ipfs_mfs_roots ORDER BY root',
  owners: 'SELECT count(*) AS n FROM ipfs_mfs_roots WHERE root = $1',
} as const;
