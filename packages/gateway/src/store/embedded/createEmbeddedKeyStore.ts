import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { createSqlKeyStore, type SqlQuery } from '../createSqlKeyStore.js';
import type { KeyStore } from '../KeyStore.js';
import { KEY_SCHEMA } from '../sql.js';

/**
 * The embedded key store: PGlite (PostgreSQL compiled to WebAssembly) in `dir`, so the
 * embedded default and a PostgreSQL deployment run the same SQL. `dir` undefined keeps it
 * in memory. One process owns a data directory at a time.
 *
 * @example
 * const store = await createEmbeddedKeyStore('.nodegate/db');
 */
export async function createEmbeddedKeyStore(dir: string | undefined): Promise<KeyStore> {
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const db = dir === undefined ? new PGlite() : new PGlite(dir);
  await db.exec(KEY_SCHEMA);
  return createSqlKeyStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery, () => db.close());
}
