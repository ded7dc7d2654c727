import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../store/postgres/openPostgresDatabase.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { USAGE_SCHEMA } from './usageSql.js';

/** The schema is applied at startup under this deadline. */
const SETUP_TIMEOUT_MS = 60_000;

/** Options of {@link openPostgresUsageStore}. */
export interface PostgresUsageStoreOptions extends SqlUsageStoreOptions, Partial<DatabaseTimeouts> {
  /** Schema holding the usage tables (default `public`); created if missing. */
  readonly schema?: string;
  /** Pool size (default 5). */
  readonly maxConnections?: number;
}

/**
 * The PostgreSQL usage store, for deployments running several gateways over one database:
 * their writes for the same minute add up. Creates the schema and tables if missing.
 *
 * Statements have the gateway database's deadlines (`queryTimeoutMs`, default 5 s: the server's
 * `statement_timeout` and pg's `query_timeout`, which drops a silent connection; connecting and
 * waiting for a pooled connection `connectTimeoutMs`, default 3 s), so a flush never waits on a
 * stalled database for longer; the recorder keeps what it could not write for the next flush.
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
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_DATABASE_TIMEOUTS.queryTimeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs;
  const searchPath = `-c search_path=${schema}`;
  // loaded here, not at the module's top: a gateway on the embedded database never needs it
  const { Client, Pool } = (await import('pg')).default;
  // One transaction under an advisory lock: gateways starting together do not race on DDL. On a
  // connection of its own without the statement deadline (it may wait for another gateway's lock).
  const setup = new Client({
    connectionString: url,
    options: searchPath,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: SETUP_TIMEOUT_MS,
  });
  setup.on('error', () => {
    // surfaced by the query below
  });
  try {
    await setup.connect();
    try {
      await setup.query(
        `BEGIN; SELECT pg_advisory_xact_lock(hashtext('nodegate_usage_schema')); CREATE SCHEMA IF NOT EXISTS ${schema}; ${USAGE_SCHEMA}; COMMIT;`,
      );
    } catch (err) {
      await setup.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } catch (err) {
    throw new Error(`cannot open the PostgreSQL usage store: ${(err as Error).message}`);
  } finally {
    await setup.end().catch(() => {});
  }
  const pool = new Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    options: `${searchPath} -c statement_timeout=${queryTimeoutMs}`,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
  });
  pool.on('error', () => {
    // an idle client's error is surfaced by the next query
  });
  return createSqlUsageStore(
    ((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery,
    () => pool.end(),
    options,
  );
}
