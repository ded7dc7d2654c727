import type { SqlQuery } from '../../store/createSqlKeyStore.js';
import type { SqlConnection, SqlDialect } from '../../store/SqlConnection.js';
import { toSqlConnection } from '../../store/toSqlConnection.js';
import type { MfsRootRecord, MfsRootStore } from './MfsRootStore.js';
import { MFS_ROOT_SCHEMA, MFS_ROOT_SQL } from './mfsRootSql.js';
import { SQLITE_MFS_ROOT_SCHEMA, SQLITE_MFS_ROOT_SQL } from './mfsRootSqliteSql.js';

const SCHEMAS: Record<SqlDialect, readonly string[]> = { postgres: MFS_ROOT_SCHEMA, sqlite: SQLITE_MFS_ROOT_SCHEMA };
const STATEMENTS: Record<SqlDialect, typeof SQLITE_MFS_ROOT_SQL> = {
  postgres: MFS_ROOT_SQL,
  sqlite: SQLITE_MFS_ROOT_SQL,
};

/**
 * The {@link MfsRootStore} over a SQL connection, in its dialect (the gateway's `Database.sql`:
 * PostgreSQL or the embedded SQLite, with their timeouts; a bare query function speaks
 * PostgreSQL's): creates `ipfs_mfs_roots` if missing. Every operation is one statement, so the
 * compare-and-set needs no transaction.
 *
 * @example
 * const roots = await createSqlMfsRootStore(db.sql);
 * await roots.swap(key, 0, 'QmUNLL…', 4); // true: the key's first root
 */
export async function createSqlMfsRootStore(db: SqlQuery | SqlConnection): Promise<MfsRootStore> {
  const { dialect, query } = toSqlConnection(db);
  for (const statement of SCHEMAS[dialect]) await query(statement);
  const SQL = STATEMENTS[dialect];
  return {
    async get(key) {
      const row = (await query<{ root: string; size: string | number; version: string | number }>(SQL.get, [key]))
        .rows[0];
      return row && ({ root: row.root, size: Number(row.size), version: Number(row.version) } satisfies MfsRootRecord);
    },
    async swap(key, version, root, size) {
      const n = Math.max(0, Math.round(size));
      const result =
        version === 0 ? await query(SQL.insert, [key, root, n]) : await query(SQL.update, [key, root, n, version]);
      return result.rows.length > 0;
    },
    async roots() {
      return (await query<{ root: string }>(SQL.roots, [])).rows.map((r) => r.root);
    },
    async owners(cid) {
      return Number((await query<{ n: string | number }>(SQL.owners, [cid])).rows[0]?.n ?? 0);
    },
  };
}
