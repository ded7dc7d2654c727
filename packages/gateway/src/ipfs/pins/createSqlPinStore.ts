import type { SqlQuery } from '../../store/createSqlKeyStore.js';
import type { SqlConnection, SqlDialect } from '../../store/SqlConnection.js';
import { SQLITE_NOW } from '../../store/sqliteTime.js';
import { toSqlConnection } from '../../store/toSqlConnection.js';
import type { OwnedPin, PinStore, PinType, StoredPin } from './PinStore.js';

/** The pin-ownership tables in PostgreSQL's dialect (PostgreSQL, and PGlite). One statement each. */
export const PIN_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ipfs_pins (
    key         text NOT NULL,
    cid         text NOT NULL,
    type        text NOT NULL CHECK (type IN ('recursive', 'direct')),
    size        bigint NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key, cid)
  )`,
  'CREATE INDEX IF NOT EXISTS ipfs_pins_cid ON ipfs_pins (cid)',
  // bytes a key made the node store unpinned, per collection epoch (one row per key and epoch)
  `CREATE TABLE IF NOT EXISTS ipfs_unpinned (
    key    text NOT NULL,
    epoch  bigint NOT NULL,
    bytes  bigint NOT NULL,
    PRIMARY KEY (key, epoch)
  )`,
  'CREATE TABLE IF NOT EXISTS ipfs_gc_epoch (id int PRIMARY KEY CHECK (id = 1), epoch bigint NOT NULL)',
  'INSERT INTO ipfs_gc_epoch (id, epoch) VALUES (1, 0) ON CONFLICT (id) DO NOTHING',
] as const;

/** The same tables in the embedded SQLite (STRICT; times as epoch ms). One statement each. */
export const SQLITE_PIN_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ipfs_pins (
    key         text NOT NULL,
    cid         text NOT NULL,
    type        text NOT NULL CHECK (type IN ('recursive', 'direct')),
    size        integer NOT NULL DEFAULT 0,
    created_at  integer NOT NULL DEFAULT (${SQLITE_NOW}),
    PRIMARY KEY (key, cid)
  ) STRICT`,
  'CREATE INDEX IF NOT EXISTS ipfs_pins_cid ON ipfs_pins (cid)',
  `CREATE TABLE IF NOT EXISTS ipfs_unpinned (
    key    text NOT NULL,
    epoch  integer NOT NULL,
    bytes  integer NOT NULL,
    PRIMARY KEY (key, epoch)
  ) STRICT`,
  'CREATE TABLE IF NOT EXISTS ipfs_gc_epoch (id integer PRIMARY KEY CHECK (id = 1), epoch integer NOT NULL) STRICT',
  'INSERT INTO ipfs_gc_epoch (id, epoch) VALUES (1, 0) ON CONFLICT (id) DO NOTHING',
] as const;

const PIN_SCHEMAS: Record<SqlDialect, readonly string[]> = { postgres: PIN_SCHEMA, sqlite: SQLITE_PIN_SCHEMA };

const POSTGRES = {
  add: `INSERT INTO ipfs_pins (key, cid, type, size) VALUES ($1, $2, $3, $4)
    ON CONFLICT (key, cid) DO UPDATE SET type = EXCLUDED.type, size = EXCLUDED.size
    WHERE ipfs_pins.type <> 'recursive' OR EXCLUDED.type = 'recursive'`,
  get: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 AND cid = $2',
  list: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 ORDER BY created_at, cid',
  listType: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 AND type = $2 ORDER BY created_at, cid',
  remove: 'DELETE FROM ipfs_pins WHERE key = $1 AND cid = $2 RETURNING cid',
  owners: 'SELECT count(*) AS n FROM ipfs_pins WHERE cid = $1',
  storedBytes: `SELECT (SELECT COALESCE(sum(size), 0) FROM ipfs_pins WHERE key = $1)
    + (SELECT COALESCE(sum(bytes), 0) FROM ipfs_unpinned WHERE key = $1) AS n`,
  // one statement: the epoch is read and the row written atomically against a collection's bump
  addUnpinned: `INSERT INTO ipfs_unpinned (key, epoch, bytes) SELECT $1, epoch, $2 FROM ipfs_gc_epoch WHERE id = 1
    ON CONFLICT (key, epoch) DO UPDATE SET bytes = ipfs_unpinned.bytes + EXCLUDED.bytes`,
  unpinnedBytes: 'SELECT COALESCE(sum(bytes), 0) AS n FROM ipfs_unpinned WHERE key = $1',
  beginCollection: 'UPDATE ipfs_gc_epoch SET epoch = epoch + 1 WHERE id = 1 RETURNING epoch - 1 AS n',
  endCollection: 'DELETE FROM ipfs_unpinned WHERE epoch <= $1',
  pinnedCids: `SELECT cid, CASE WHEN bool_or(type = 'recursive') THEN 'recursive' ELSE 'direct' END AS type
    FROM ipfs_pins GROUP BY cid ORDER BY cid`,
} as const;

/** The pin store's statements, one set per dialect (the same parameters in each). */
const SQL_BY_DIALECT: Record<SqlDialect, { readonly [K in keyof typeof POSTGRES]: string }> = {
  postgres: POSTGRES,
  sqlite: {
    add: `INSERT INTO ipfs_pins (key, cid, type, size) VALUES (?1, ?2, ?3, ?4)
      ON CONFLICT (key, cid) DO UPDATE SET type = excluded.type, size = excluded.size
      WHERE ipfs_pins.type <> 'recursive' OR excluded.type = 'recursive'`,
    get: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = ?1 AND cid = ?2',
    list: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = ?1 ORDER BY created_at, cid',
    listType: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = ?1 AND type = ?2 ORDER BY created_at, cid',
    remove: 'DELETE FROM ipfs_pins WHERE key = ?1 AND cid = ?2 RETURNING cid',
    owners: 'SELECT count(*) AS n FROM ipfs_pins WHERE cid = ?1',
    storedBytes: `SELECT (SELECT COALESCE(sum(size), 0) FROM ipfs_pins WHERE key = ?1)
      + (SELECT COALESCE(sum(bytes), 0) FROM ipfs_unpinned WHERE key = ?1) AS n`,
    addUnpinned: `INSERT INTO ipfs_unpinned (key, epoch, bytes) SELECT ?1, epoch, ?2 FROM ipfs_gc_epoch WHERE id = 1
      ON CONFLICT (key, epoch) DO UPDATE SET bytes = ipfs_unpinned.bytes + excluded.bytes`,
    unpinnedBytes: 'SELECT COALESCE(sum(bytes), 0) AS n FROM ipfs_unpinned WHERE key = ?1',
    beginCollection: 'UPDATE ipfs_gc_epoch SET epoch = epoch + 1 WHERE id = 1 RETURNING epoch - 1 AS n',
    endCollection: 'DELETE FROM ipfs_unpinned WHERE epoch <= ?1',
    pinnedCids: `SELECT cid, CASE WHEN max(type = 'recursive') THEN 'recursive' ELSE 'direct' END AS type
      FROM ipfs_pins GROUP BY cid ORDER BY cid`,
  },
};

interface PinRow {
  cid: string;
  type: string;
  size: string | number;
  /** a Date (PostgreSQL) or epoch ms (SQLite) */
  created_at: Date | string | number;
}

const toPin = (r: PinRow): StoredPin => ({
  cid: r.cid,
  type: r.type as PinType,
  size: Number(r.size),
  createdAt: new Date(r.created_at),
});

/**
 * The {@link PinStore} over a SQL connection, in its dialect (the gateway's `Database.sql`:
 * PostgreSQL or the embedded SQLite; a bare query function, PGlite's `db.query` or pg's
 * `pool.query`, speaks PostgreSQL's): creates its tables if missing (`ipfs_pins`;
 * `ipfs_unpinned` and `ipfs_gc_epoch` for unpinned bytes counted until the node collects them).
 *
 * @example
 * const pins = await createSqlPinStore(db.sql);
 * await pins.add(key, [{ cid: 'QmZULk…', type: 'recursive', size: 14 }]);
 */
export async function createSqlPinStore(db: SqlQuery | SqlConnection): Promise<PinStore> {
  const { dialect, query } = toSqlConnection(db);
  for (const statement of PIN_SCHEMAS[dialect]) await query(statement);
  const SQL = SQL_BY_DIALECT[dialect];
  const count = async (sql: string, params: unknown[]) =>
    Number((await query<{ n: string | number }>(sql, params)).rows[0]?.n ?? 0);
  return {
    async add(key, pins: readonly OwnedPin[]) {
      for (const p of pins) await query(SQL.add, [key, p.cid, p.type, Math.max(0, Math.round(p.size))]);
    },
    async get(key, cid) {
      const row = (await query<PinRow>(SQL.get, [key, cid])).rows[0];
      return row && toPin(row);
    },
    async list(key, type) {
      const rows =
        type === undefined ? await query<PinRow>(SQL.list, [key]) : await query<PinRow>(SQL.listType, [key, type]);
      return rows.rows.map(toPin);
    },
    async remove(key, cid) {
      return (await query(SQL.remove, [key, cid])).rows.length > 0;
    },
    owners: (cid) => count(SQL.owners, [cid]),
    storedBytes: (key) => count(SQL.storedBytes, [key]),
    async addUnpinned(key, bytes) {
      const n = Math.max(0, Math.round(bytes));
      if (n > 0) await query(SQL.addUnpinned, [key, n]);
    },
    unpinnedBytes: (key) => count(SQL.unpinnedBytes, [key]),
    beginCollection: () => count(SQL.beginCollection, []),
    async endCollection(mark) {
      await query(SQL.endCollection, [mark]);
    },
    async pinnedCids() {
      return (await query<{ cid: string; type: string }>(SQL.pinnedCids, [])).rows.map((r) => ({
        cid: r.cid,
        type: r.type as PinType,
      }));
    },
  };
}
