import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { createSqlUsageStore, type SqlUsageStoreOptions } from './createSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { USAGE_SCHEMA } from './usageSql.js';

/**
 * The embedded usage store: PGlite in `dir` (created if missing), or in memory when `dir` is
 * undefined. Same SQL as PostgreSQL. One process owns a data directory at a time; use a
 * directory of its own (not the key store's).
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
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const db = dir === undefined ? new PGlite() : new PGlite(dir);
  try {
    await db.exec(USAGE_SCHEMA);
  } catch (err) {
    await db.close();
    throw new Error(`cannot open the embedded usage store: ${(err as Error).message}`);
  }
  return createSqlUsageStore(
    ((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery,
    () => db.close(),
    options,
  );
}
