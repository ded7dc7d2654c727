import type { KeyStore } from './KeyStore.js';
import { type KeyRow, rowToRecord, SQL } from './sql.js';

/** Runs one parameterised statement; PGlite's `db.query` and pg's `pool.query` both fit. */
export type SqlQuery = <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;

/**
 * The KeyStore over any SQL connection speaking PostgreSQL's dialect: the embedded (PGlite)
 * and PostgreSQL stores differ only in how they connect.
 */
export function createSqlKeyStore(query: SqlQuery, close: () => Promise<void>): KeyStore {
  const one = async (sql: string, params: unknown[]) => (await query<KeyRow>(sql, params)).rows[0];
  const counter = async (sql: string, params: unknown[]) => {
    const row = (await query<{ value: string | number }>(sql, params)).rows[0];
    return row === undefined ? 0 : Number(row.value);
  };
  return {
    async insert(k) {
      return rowToRecord((await one(SQL.insert, [k.key, k.secretHash, k.name, k.plan, k.dev]))!);
    },
    async find(key) {
      const row = await one(SQL.find, [key]);
      return row && rowToRecord(row);
    },
    async list() {
      return (await query<KeyRow>(SQL.list)).rows.map(rowToRecord);
    },
    async revoke(key) {
      return (await one(SQL.revoke, [key])) !== undefined;
    },
    async findDevKey() {
      const row = await one(SQL.findDev, []);
      return row && rowToRecord(row);
    },
    addUsage: (key, metric, delta) => counter(SQL.addUsage, [key, metric, delta]),
    usage: (key, metric) => counter(SQL.usage, [key, metric]),
    close,
  };
}
