import pg from 'pg';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { USAGE_SCHEMA } from './usageSql.js';

/** Options of {@link openPostgresUsageStore}. */
export interface PostgresUsageStoreOptions extends SqlUsageStoreOptions {
  /** Schema holding the usage tables (default `public`); created if missing. */
  readonly schema?: string;
  /** Pool size (default 5). */
  readonly maxConnections?: number;
}

/**
 * The PostgreSQL usage store, for deployments running several gateways over one database:
 * their writes for the same minute add up. Creates the schema and tables if missing.
 *
 * @example
 * const usage = await openPostgresUsageStore('postgres://nodegate@db.internal/nodegate', { schema: 'nodegate' });
 * const totals = await usage.totals({ accountId: 'acct_1', from: Date.now() - 86_400_000, to: Date.now() });
 * await usage.close();
 */
export async function openPostgresUsageStore(
  url: string,
  options: PostgresUsageStoreOptions = {},
): Promise<UsageStore> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    options: `-c search_path=${schema}`,
  });
  pool.on('error', () => {
    // an idle client's error is surfaced by the next query
  });
  try {
    // One transaction under an advisory lock: gateways starting together do not race on DDL.
    const client = await pool.connect();
    try {
      await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(hashtext('nodegate_usage_schema')); CREATE SCHEMA IF NOT EXISTS ${schema}; ${USAGE_SCHEMA}; COMMIT;`,
      );
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL usage store: ${(err as Error).message}`);
  }
  return createSqlUsageStore(
    ((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery,
    () => pool.end(),
    options,
  );
}
