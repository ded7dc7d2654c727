import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { SqlQuery } from './createSqlKeyStore.js';
import { DatabaseUnavailableError } from './DatabaseUnavailableError.js';
import type { SqlConnection } from './SqlConnection.js';

/**
 * Error classes that say the server is away or cannot take the query now: connection (08),
 * shutdown (57P0x), too many connections (53300), and system errors (58: the embedded SQLite's
 * I/O errors, an unreadable or corrupt file; see `openSqliteEngine`).
 */
const OUTAGE_SQLSTATE = /^(?:08|57P0|53300|58)/;
/**
 * The statement could not finish in time, without the database being away: `query_canceled`
 * (PostgreSQL's `statement_timeout` ended it) and `lock_not_available` (the embedded SQLite
 * stayed busy past its busy timeout: another process held its write lock).
 */
const NOT_IN_TIME = new Set(['57014', '55P03']);

/**
 * Whether a query's failure means the database is away (a deadline passed, a connection could
 * not be made or was lost, the server is shutting down or full) rather than a fault of the query
 * (a constraint, a syntax error), which says the database answered.
 *
 * @example
 * isDatabaseOutage(new Error('Connection terminated unexpectedly')); // true
 */
export function isDatabaseOutage(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (typeof err !== 'object' || err === null) return true;
  const e = err as { severity?: unknown; code?: unknown };
  // a server's error (pg's DatabaseError, PGlite's, the embedded SQLite's): only the outage classes are outages
  if (typeof e.severity === 'string') return typeof e.code === 'string' && OUTAGE_SQLSTATE.test(e.code);
  return true;
}

/**
 * Every statement of the gateway's database goes through this: each `query` and `transaction` has
 * a client-side deadline of `timeoutMs` (which holds even when the TCP connection is silent, or
 * when the embedded database's thread is busy with a long statement: nothing waits longer,
 * whatever the driver does; the statement itself still runs, in its turn), fails at once while
 * `health` is down (no statement waits for a database known to be away; the health's probe
 * brings it back within about a second), and turns a failure because the database is away into
 * a {@link DatabaseUnavailableError} (503), taking `health` down. A statement the server
 * cancelled for `statement_timeout`, or that the embedded database could not start because
 * another process held its lock past the busy timeout, is also a 503, without taking the health
 * down. Other failures (constraints…) pass unchanged.
 *
 * @example
 * const sql = guardQuery(raw, { timeoutMs: 5000, health });
 * await sql.query('SELECT 1'); // rejects with DatabaseUnavailableError after 5 s at most
 */
export function guardQuery(
  raw: SqlConnection,
  options: { timeoutMs: number; health: DependencyHealth },
): SqlConnection {
  const { timeoutMs, health } = options;
  const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
    if (!health.up()) {
      // the reason stays in the log and /health: it may name internal addresses
      throw new DatabaseUnavailableError('the database is unavailable; retry shortly');
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new DatabaseUnavailableError(`the database did not answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && NOT_IN_TIME.has(code)) {
        throw new DatabaseUnavailableError(`the database did not finish the statement within ${timeoutMs} ms`, err);
      }
      if (!isDatabaseOutage(err)) throw err;
      health.failed(err);
      if (err instanceof DatabaseUnavailableError) throw err;
      throw new DatabaseUnavailableError('the database is unavailable: the connection failed', err);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    dialect: raw.dialect,
    query: ((sql: string, params?: unknown[]) => guarded(() => raw.query(sql, params))) as SqlQuery,
    transaction: (statements) => guarded(() => raw.transaction(statements)),
  };
}
