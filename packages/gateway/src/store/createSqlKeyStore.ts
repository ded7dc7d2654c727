import { OPEN_SETTINGS } from '../keys/KeySettings.js';
import type { KeyStore } from './KeyStore.js';
import type { SqlConnection } from './SqlConnection.js';
import { KEY_SQL, type KeyRow, rowToRecord } from './sql.js';

/**
 * Runs one parameterised statement (numbered parameters: `$1` in PostgreSQL's dialect, `?1` in
 * SQLite's); PGlite's `db.query`, pg's `pool.query` and `SqlConnection.query` all fit.
 */
export type SqlQuery = <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;

/**
 * The KeyStore over a SQL connection, in its dialect (`KEY_SQL`: PostgreSQL's, or the embedded
 * SQLite's): the stores differ only in their statements. The schema (`SCHEMA` or `SQLITE_SCHEMA`
 * in `sql.ts`) must already be applied (`openDatabase` does it). Each lookup reads the key and
 * its account's plan in one statement, and so does each change.
 *
 * @example
 * const keys = createSqlKeyStore(db.sql, () => db.close());
 * const rec = await keys.find(key); // rec.accountPlan is read in the same query
 */
export function createSqlKeyStore(sql: SqlConnection, close: () => Promise<void>): KeyStore {
  const { query } = sql;
  const SQL = KEY_SQL[sql.dialect];
  const one = async (sql: string, params: unknown[]) => (await query<KeyRow>(sql, params)).rows[0];
  const counter = async (sql: string, params: unknown[]) => {
    const row = (await query<{ value: string | number }>(sql, params)).rows[0];
    return row === undefined ? 0 : Number(row.value);
  };
  return {
    async insert(k) {
      const settings = JSON.stringify({ ...OPEN_SETTINGS, ...k.settings });
      const row = await one(SQL.insert, [k.key, k.secretHash, k.name, k.accountId, k.plan, k.dev, settings]);
      if (!row) throw new Error('key insert returned no row');
      return rowToRecord(row);
    },
    async find(key) {
      const row = await one(SQL.find, [key]);
      return row && rowToRecord(row);
    },
    async list(accountId) {
      const rows =
        accountId === undefined
          ? (await query<KeyRow>(SQL.list)).rows
          : (await query<KeyRow>(SQL.listByAccount, [accountId])).rows;
      return rows.map(rowToRecord);
    },
    async update(key, patch) {
      const row = await one(SQL.update, [
        key,
        patch.name !== undefined,
        patch.name ?? null,
        patch.plan !== undefined,
        patch.plan ?? null,
        patch.settings !== undefined,
        patch.settings === undefined ? null : JSON.stringify({ ...OPEN_SETTINGS, ...patch.settings }),
      ]);
      return row && rowToRecord(row);
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
