import type { SqlConnection, SqlDialect } from '../store/SqlConnection.js';
import type { UsageBatch, UsageBucket } from './UsageStore.js';

/** Rows the dead-letter table keeps (the newest; older ones are dropped as new ones come). */
export const DEAD_LETTER_KEEP = 10_000;

/** A row set aside: its part of the batch, the row as JSON (bounded), the database's reason (bounded). */
export interface DeadLetterRow {
  readonly kind: 'aggregate' | 'error' | 'recent';
  readonly data: string;
  readonly error: string;
}

/**
 * What the usage store needs of its database, one implementation per dialect (`usageSql.ts` for
 * PostgreSQL, `usageSqliteSql.ts` for the embedded SQLite; `USAGE_SQL` in `usageSql.ts` has
 * both), chosen once when the store is created: the writes (a flush, rows set aside, the request
 * log's trim) and the pieces the queries are built from. The queries themselves (tables, columns,
 * sums) are the same text in both.
 */
export interface UsageDialect {
  readonly dialect: SqlDialect;
  /** Creates the usage tables if missing (idempotent; gateways starting together do not race). */
  applySchema(sql: SqlConnection): Promise<void>;
  /** Adds a (cleaned) batch to the tables, all of it or nothing. */
  write(sql: SqlConnection, batch: UsageBatch): Promise<void>;
  /** Adds rows to the dead-letter table and keeps its newest {@link DEAD_LETTER_KEEP}. */
  setAside(sql: SqlConnection, rows: readonly DeadLetterRow[]): Promise<void>;
  /** Keeps the newest `keep` requests of each of `keys` in the request log. */
  trimRecent(sql: SqlConnection, keys: readonly string[], keep: number): Promise<void>;
  /** The `n`th parameter (1-based) in a statement. */
  param(n: number): string;
  /** A time (epoch ms) as a parameter's value, and its reference in a statement. */
  timeValue(ms: number): unknown;
  timeParam(n: number): string;
  /** The start of the `bucket` (from the Unix epoch, UTC) that the time column `col` falls in. */
  bin(bucket: UsageBucket, col: string): string;
}
