import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { createDatabase } from '../createDatabase.js';
import type { SqlQuery } from '../createSqlKeyStore.js';
import type { Database } from '../Database.js';
import { SCHEMA } from '../sql.js';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in `dir`, so the embedded
 * default and a PostgreSQL deployment run the same SQL. `dir` undefined keeps it in memory.
 * Applies (and migrates to) the current schema. One process owns a data directory at a time.
 *
 * @example
 * const db = await openEmbeddedDatabase('.nodegate/db');
 * const { keys, accounts } = db;
 * await db.close();
 */
export async function openEmbeddedDatabase(dir: string | undefined): Promise<Database> {
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const db = dir === undefined ? new PGlite() : new PGlite(dir);
  try {
    await db.exec(SCHEMA);
  } catch (err) {
    await db.close();
    throw new Error(`cannot open the embedded database: ${(err as Error).message}`);
  }
  const query = ((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery;
  return createDatabase('embedded', query, () => db.close());
}
