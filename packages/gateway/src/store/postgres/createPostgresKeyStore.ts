import pg from 'pg';
import type { KeyStore } from '../KeyStore.js';
import { KEY_SCHEMA, type KeyRow, rowToRecord, SQL } from '../sql.js';

/**
 * The PostgreSQL key store, for deployments that run several gateways over one database.
 * Same SQL as the embedded store. `schema` (default `public`) lets tests and tenants keep
 * their tables apart; it is created if missing.
 *
 * @example
 * const store = await createPostgresKeyStore('postgres://nodegate@db.internal/nodegate');
 */
export async function createPostgresKeyStore(url: string, options: { schema?: string } = {}): Promise<KeyStore> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  pool.on('error', () => {
    // idle client errors are surfaced by the next query
  });
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await pool.query(KEY_SCHEMA);
  } catch (err) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL key store: ${(err as Error).message}`);
  }
  const one = async (sql: string, params: unknown[]) => (await pool.query<KeyRow>(sql, params)).rows[0];
  return {
    async insert(k) {
      return rowToRecord((await one(SQL.insert, [k.key, k.secretHash, k.name, k.plan, k.dev]))!);
    },
    async find(key) {
      const row = await one(SQL.find, [key]);
      return row && rowToRecord(row);
    },
    async list() {
      return (await pool.query<KeyRow>(SQL.list)).rows.map(rowToRecord);
    },
    async revoke(key) {
      return (await one(SQL.revoke, [key])) !== undefined;
    },
    async findDevKey() {
      const row = await one(SQL.findDev, []);
      return row && rowToRecord(row);
    },
    async addUsage(key, metric, delta) {
      const row = (await pool.query<{ value: string }>(SQL.addUsage, [key, metric, delta])).rows[0];
      return Number(row!.value);
    },
    async usage(key, metric) {
      const row = (await pool.query<{ value: string }>(SQL.usage, [key, metric])).rows[0];
      return row === undefined ? 0 : Number(row.value);
    },
    async close() {
      await pool.end();
    },
  };
}
