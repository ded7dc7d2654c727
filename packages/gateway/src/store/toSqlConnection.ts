import type { SqlQuery } from './createSqlKeyStore.js';
import type { SqlConnection } from './SqlConnection.js';

/**
 * `db` as a {@link SqlConnection}: a connection stays as it is; a bare `SqlQuery` (PGlite's
 * `db.query`, pg's `pool.query`, as tests and harnesses pass them) speaks PostgreSQL's dialect and
 * has no transactions (PostgreSQL's statement sets never need one: each operation is one
 * statement).
 *
 * @example
 * const sql = toSqlConnection((text, params) => pool.query(text, params)); // sql.dialect === 'postgres'
 */
export function toSqlConnection(db: SqlQuery | SqlConnection): SqlConnection {
  if (typeof db !== 'function') return db;
  return {
    dialect: 'postgres',
    query: db,
    transaction: () => Promise.reject(new Error('a transaction needs a SqlConnection, not a bare query function')),
  };
}
