import pg from 'pg';
import { createSqlKeyStore, type SqlQuery } from '../createSqlKeyStore.js';
import type { KeyStore } from '../KeyStore.js';
import { KEY_SCHEMA } from '../sql.js';

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
    // an idle client's error is surfaced by the next query
  });
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await pool.query(KEY_SCHEMA);
  } catch (err) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL key store: ${(err as Error).message}`);
  }
  return createSqlKeyStore(((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery, () =>
    pool.end(),
  );
}
