import type { SqlDialect, SqlStatement } from '../SqlConnection.js';

/** The embedded database engines: SQLite (`node:sqlite`, the default) and PGlite (the comparison, and the migration's reader). */
export type EmbeddedEngineName = 'sqlite' | 'pglite';

/** Where an engine keeps its data, and how long it waits for another process's lock. */
export interface EmbeddedEngineOptions {
  /** The database file (SQLite) or directory (PGlite); undefined keeps it in memory. */
  readonly path: string | undefined;
  /** SQLite: how long a statement waits for another process's write lock before failing busy. */
  readonly busyTimeoutMs: number;
}

/** A failure as it crosses the worker's message port: PostgreSQL's fields (SQLite's codes are mapped to them). */
export interface EngineError {
  readonly message: string;
  readonly code?: string | undefined;
  readonly severity?: string | undefined;
}

/**
 * One open embedded database, on whichever thread runs it (`embeddedDatabaseWorker`, or the
 * caller's own for the comparison bench). Results may be synchronous (SQLite) or not (PGlite).
 * Failures are thrown as errors with PostgreSQL's `code` and `severity` (see {@link EngineError}).
 */
export interface EmbeddedEngine {
  readonly dialect: SqlDialect;
  /** Runs a script of several statements (the schema), without parameters or results. */
  exec(script: string): void | Promise<void>;
  query(sql: string, params: readonly unknown[]): { rows: unknown[] } | Promise<{ rows: unknown[] }>;
  transaction(statements: readonly SqlStatement[]): Array<{ rows: unknown[] }> | Promise<Array<{ rows: unknown[] }>>;
  close(): void | Promise<void>;
}
