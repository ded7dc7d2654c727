import type { SqlQuery } from './createSqlKeyStore.js';

/**
 * The SQL dialect a connection speaks: PostgreSQL's (PostgreSQL itself, and PGlite) or SQLite's
 * (the embedded database, `node:sqlite`). Each store keeps one statement set per dialect and
 * picks it once, when it is created.
 */
export type SqlDialect = 'postgres' | 'sqlite';

/** One statement of {@link SqlConnection.transaction}. */
export interface SqlStatement {
  readonly sql: string;
  /** Its parameters, when it runs once. */
  readonly params?: readonly unknown[] | undefined;
  /**
   * Runs it once per parameter list instead (one prepared statement for many rows, e.g. a usage
   * flush's rows): its result holds the rows of every run, in order.
   */
  readonly each?: readonly (readonly unknown[])[] | undefined;
  /**
   * When it returns no row, the statements after it are skipped (what ran is committed): e.g. an
   * invitation that is no longer pending makes no membership.
   */
  readonly stopUnlessRows?: boolean | undefined;
}

/**
 * One database connection as the stores see it: its dialect, single statements (`query`), and
 * several statements in one transaction (`transaction`: all or nothing; the result holds the rows
 * of each statement that ran, in order). Statements use numbered parameters (`$1` in PostgreSQL's
 * dialect, `?1` in SQLite's). `Database.sql` is one, already guarded (`guardQuery`).
 *
 * @example
 * const [, added] = await sql.transaction([{ sql: 'DELETE FROM t WHERE k = ?1', params: [k] }, { sql: 'INSERT INTO t (k) VALUES (?1) RETURNING k', params: [k] }]);
 */
export interface SqlConnection {
  readonly dialect: SqlDialect;
  readonly query: SqlQuery;
  transaction(statements: readonly SqlStatement[]): Promise<Array<{ rows: unknown[] }>>;
}
