import type { SqlQuery } from '../../store/createSqlKeyStore.js';
import type { OwnedPin, PinStore, PinType, StoredPin } from './PinStore.js';

/** The pin-ownership table (PostgreSQL dialect: PGlite and PostgreSQL). One statement each. */
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
] as const;

const SQL = {
  add: `INSERT INTO ipfs_pins (key, cid, type, size) VALUES ($1, $2, $3, $4)
    ON CONFLICT (key, cid) DO UPDATE SET type = EXCLUDED.type, size = EXCLUDED.size
    WHERE ipfs_pins.type <> 'recursive' OR EXCLUDED.type = 'recursive'`,
  get: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 AND cid = $2',
  list: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 ORDER BY created_at, cid',
  listType: 'SELECT cid, type, size, created_at FROM ipfs_pins WHERE key = $1 AND type = $2 ORDER BY created_at, cid',
  remove: 'DELETE FROM ipfs_pins WHERE key = $1 AND cid = $2 RETURNING cid',
  owners: 'SELECT count(*) AS n FROM ipfs_pins WHERE cid = $1',
  storedBytes: 'SELECT COALESCE(sum(size), 0) AS n FROM ipfs_pins WHERE key = $1',
} as const;

interface PinRow {
  cid: string;
  type: string;
  size: string | number;
  created_at: Date | string;
}

const toPin = (r: PinRow): StoredPin => ({
  cid: r.cid,
  type: r.type as PinType,
  size: Number(r.size),
  createdAt: new Date(r.created_at),
});

/**
 * The {@link PinStore} over a SQL connection speaking PostgreSQL's dialect (PGlite's `db.query`
 * or pg's `pool.query`): creates the `ipfs_pins` table if missing.
 *
 * @example
 * const db = new PGlite('.nodegate/db');
 * const pins = await createSqlPinStore((sql, params) => db.query(sql, params));
 * await pins.add(key, [{ cid: 'QmZULk…', type: 'recursive', size: 14 }]);
 */
export async function createSqlPinStore(query: SqlQuery): Promise<PinStore> {
  for (const statement of PIN_SCHEMA) await query(statement);
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
  };
}
