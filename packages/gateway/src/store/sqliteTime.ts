/**
 * The embedded SQLite database keeps every time as epoch milliseconds (an `integer` column), the
 * way PostgreSQL keeps `timestamptz`: this is "now" in that form, for defaults and comparisons.
 *
 * @example
 * `UPDATE api_keys SET revoked_at = ${SQLITE_NOW} WHERE key = ?1`
 */
export const SQLITE_NOW = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in epoch ms: the times both dialects store. */
const FIRST = -62_135_596_800_000;
const LAST = 253_402_300_799_999;

/**
 * A column constraint that refuses a time PostgreSQL could not store either (SQLite would keep any
 * number), or one that is not a whole millisecond, named so that the refusal says why: `CHECK
 * constraint failed: <column>_in_range`. A usage row with such a time is set aside like
 * PostgreSQL's "timestamp out of range".
 *
 * @example
 * `minute integer NOT NULL ${sqliteTimeInRange('minute')}`
 */
export const sqliteTimeInRange = (column: string) =>
  `CONSTRAINT ${column}_in_range CHECK (typeof(${column}) = 'integer' AND ${column} BETWEEN ${FIRST} AND ${LAST})`;
