import pg from 'pg';
import { createDatabase } from '../createDatabase.js';
import type { SqlQuery } from '../createSqlKeyStore.js';
import type { Database } from '../Database.js';
import { SCHEMA } from '../sql.js';

/**
 * The PostgreSQL database, for deployments that run several gateways over one database. Same
 * SQL as the embedded one. `schema` (default `public`) keeps tests' and tenants' tables apart;
 * it is created if missing. Applies (and migrates to) the current schema.
 *
 * @example
 * const db = await openPostgresDatabase('postgres://nodegate@db.internal/nodegate');
 */
export async function openPostgresDatabase(url: string, options: { schema?: string } = {}): Promise<Database> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  pool.on('error', () => {
    // an idle client's error is surfaced by the next query
  });
  try {
    // one statement string is one implicit transaction: gateways starting together take turns
    await pool.query(`SELECT pg_advisory_xact_lock(8550001); CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await pool.query(SCHEMA);
  } catch (err) {
    await pool.end();
    // pg's messages name the server and the statement, never the password
    throw new Error(`cannot open the PostgreSQL database: ${(err as Error).message}`);
  }
  const query = ((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery;
  return createDatabase('postgres', query, () => pool.end());
}
