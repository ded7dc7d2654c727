import type { SqlQuery } from '../store/createSqlKeyStore.js';
import type { SqlConnection } from '../store/SqlConnection.js';
import { toSqlConnection } from '../store/toSqlConnection.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { USAGE_SQL } from './usageSql.js';

/**
 * The usage store over a connection someone else owns (the gateway's `Database.sql`, so usage
 * shares the embedded database or the PostgreSQL pool with keys and accounts), in the
 * connection's dialect (a bare query function speaks PostgreSQL's). Creates the usage tables if
 * missing (PostgreSQL: in one statement under an advisory lock so that gateways starting together
 * do not race; SQLite: in one transaction). Its `close` does nothing: close the connection's owner
 * instead (after the recorder's `close`).
 *
 * @example
 * const db = await openDatabase(config, dataDir);
 * const usage = await openSqlUsageStore(db.sql);
 * const recorder = createUsageRecorder({ store: usage });
 * // at shutdown: await recorder.close(); await db.close();
 */
export async function openSqlUsageStore(
  db: SqlConnection | SqlQuery,
  options: SqlUsageStoreOptions = {},
): Promise<UsageStore> {
  const sql = toSqlConnection(db);
  await USAGE_SQL[sql.dialect].applySchema(sql);
  return createSqlUsageStore(sql, async () => {}, options);
}
