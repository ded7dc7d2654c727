import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_EMBEDDED_QUERY_TIMEOUT_MS } from '../store/embedded/openEmbeddedDatabase.js';
import { startDatabaseWorker } from '../store/embedded/startDatabaseWorker.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { SQLITE_USAGE_SQL } from './usageSqliteSql.js';

/**
 * An embedded usage store of its own: SQLite (`node:sqlite`, in a worker thread, so a flush never
 * runs on the caller's event loop) in `dir/usage.db` (`dir` created if missing), or in memory when
 * `dir` is undefined. The gateway keeps usage in its one database (`openSqlUsageStore(db.sql)`);
 * this one is for tools and tests that want usage alone.
 *
 * @example
 * const usage = await openEmbeddedUsageStore('.nodegate/usage');
 * const recorder = createUsageRecorder({ store: usage });
 * // at shutdown: await recorder.close(); await usage.close();
 */
export async function openEmbeddedUsageStore(
  dir: string | undefined,
  options: SqlUsageStoreOptions = {},
): Promise<UsageStore> {
  if (dir !== undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
  const conn = await startDatabaseWorker('sqlite', {
    path: dir === undefined ? undefined : join(dir, 'usage.db'),
    busyTimeoutMs: DEFAULT_EMBEDDED_QUERY_TIMEOUT_MS,
  });
  try {
    await SQLITE_USAGE_SQL.applySchema(conn);
  } catch (err) {
    await conn.close();
    throw new Error(`cannot open the embedded usage store: ${(err as Error).message}`);
  }
  return createSqlUsageStore(conn, () => conn.close(), options);
}
