import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { USAGE_SCHEMA } from './usageSql.js';

/**
 * The usage store over a connection someone else owns (the gateway's `Database.query`, so
 * usage shares the embedded data directory or the PostgreSQL pool with keys and accounts).
 * Creates the usage tables if missing, in one statement under an advisory lock so that
 * gateways starting together do not race. Its `close` does nothing: close the connection's
 * owner instead (after the recorder's `close`).
 *
 * @example
 * const db = await openDatabase(config, dataDir);
 * const usage = await openSqlUsageStore(db.query);
 * const recorder = createUsageRecorder({ store: usage });
 * // at shutdown: await recorder.close(); await db.close();
 */
export async function openSqlUsageStore(query: SqlQuery, options: SqlUsageStoreOptions = {}): Promise<UsageStore> {
  await query(
    `DO $usage$ BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('nodegate_usage_schema'));
      ${USAGE_SCHEMA}
    END $usage$`,
  );
  return createSqlUsageStore(query, async () => {}, options);
}
