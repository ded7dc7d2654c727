import type pg from 'pg';
import { createDependencyHealth } from '../../health/createDependencyHealth.js';
import type { Logger } from '../../log/createLogger.js';
import { createDatabase } from '../createDatabase.js';
import type { SqlQuery } from '../createSqlKeyStore.js';
import type { Database } from '../Database.js';
import { guardQuery } from '../guardQuery.js';
import type { SqlConnection, SqlStatement } from '../SqlConnection.js';
import { SCHEMA } from '../sql.js';

/** How long the gateway waits for its database (the `database` config section; defaults in `validateConfig`). */
export interface DatabaseTimeouts {
  /** A statement (with the wait for a connection) that takes longer fails with a 503. */
  readonly queryTimeoutMs: number;
  /** A new connection (TCP and PostgreSQL's startup) that takes longer fails. */
  readonly connectTimeoutMs: number;
}

/** The defaults of `database.queryTimeoutMs` and `database.connectTimeoutMs`. */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = Object.freeze({
  queryTimeoutMs: 5_000,
  connectTimeoutMs: 3_000,
});

/** The schema is applied at startup under this deadline (gateways starting together wait for each other's lock). */
const SETUP_TIMEOUT_MS = 60_000;
/** `close()` waits this long for the pool's connections to end (a stalled one never would). */
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * The PostgreSQL database, for deployments that run several gateways over one database. Same
 * SQL as the embedded one. `schema` (default `public`) keeps tests' and tenants' tables apart;
 * it is created if missing. Applies (and migrates to) the current schema.
 *
 * **Timeouts**: every statement has a deadline of `queryTimeoutMs`, three ways: the server
 * cancels it (`statement_timeout`), the driver gives up on it and drops its connection
 * (`query_timeout`), and `guardQuery` rejects it on the client side whatever the connection
 * does (a stalled TCP connection answers nothing, not even an error). Connecting is bounded by
 * `connectTimeoutMs` (`connectionTimeoutMillis`, which also bounds the wait for a free pooled
 * connection), and TCP keepalive is on. `db.health` is down from the first statement that
 * failed because the database is away until a `SELECT 1` probe (every second) answers; while it
 * is down every statement fails at once with a 503 (`DatabaseUnavailableError`).
 *
 * @example
 * const db = await openPostgresDatabase('postgres://nodegate@db.internal/nodegate', { queryTimeoutMs: 5000 });
 */
export async function openPostgresDatabase(
  url: string,
  options: { schema?: string; log?: Logger | undefined } & Partial<DatabaseTimeouts> = {},
): Promise<Database> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_DATABASE_TIMEOUTS.queryTimeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs;
  const searchPath = `-c search_path=${schema}`;
  // loaded here, not at the module's top: a gateway on the embedded database never needs it
  const { Client, Pool } = (await import('pg')).default;

  // the schema first, on a connection of its own without the statement deadline (a migration,
  // or the wait for another gateway's lock, may take longer than a request's statement)
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
    // one statement string is one implicit transaction: gateways starting together take turns
    await setup.query(`SELECT pg_advisory_xact_lock(8550001); CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await setup.query(SCHEMA);
  } catch (err) {
    // pg's messages name the server and the statement, never the password
    throw new Error(`cannot open the PostgreSQL database: ${(err as Error).message}`);
  } finally {
    await setup.end().catch(() => {});
  }

  const pool = new Pool({
    connectionString: url,
    max: 10,
    options: `${searchPath} -c statement_timeout=${queryTimeoutMs}`,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
  });
  pool.on('error', () => {
    // an idle client's error is surfaced by the next query
  });
  const raw: SqlConnection = {
    dialect: 'postgres',
    query: ((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery,
    transaction: (statements) => inTransaction(pool, statements),
  };
  const health = createDependencyHealth({
    name: 'database',
    probe: () => raw.query('SELECT 1'),
    timeoutMs: queryTimeoutMs,
    log: options.log,
    whileDown: 'keys seen before are served as last known; unknown keys, sign-in and the admin API answer 503',
  });
  return createDatabase(
    'postgres',
    guardQuery(raw, { timeoutMs: queryTimeoutMs, health }),
    async () => {
      health.close();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        pool.end(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    health,
  );
}

/** Runs `statements` on one pooled connection between BEGIN and COMMIT (ROLLBACK on a failure). */
async function inTransaction(pool: pg.Pool, statements: readonly SqlStatement[]): Promise<Array<{ rows: unknown[] }>> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('BEGIN');
    const results: Array<{ rows: unknown[] }> = [];
    for (const s of statements) {
      if (s.each !== undefined) {
        const rows: unknown[] = [];
        for (const params of s.each) rows.push(...(await client.query(s.sql, [...params])).rows);
        results.push({ rows });
        continue;
      }
      const { rows } = await client.query(s.sql, [...(s.params ?? [])]);
      results.push({ rows });
      if (s.stopUnlessRows === true && rows.length === 0) break;
    }
    await client.query('COMMIT');
    return results;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: unknown) => {
      broken = e;
    });
    throw err;
  } finally {
    // a connection that could not roll back is not given to the next caller
    client.release(broken === undefined ? undefined : (broken as Error));
  }
}
