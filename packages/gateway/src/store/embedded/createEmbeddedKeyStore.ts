import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { KeyStore } from '../KeyStore.js';
import { KEY_SCHEMA, type KeyRow, rowToRecord, SQL } from '../sql.js';

/**
 * The embedded key store: PGlite (PostgreSQL compiled to WebAssembly) in `dir`, so the
 * embedded default and a PostgreSQL deployment run the same SQL. `dir` undefined keeps it
 * in memory (tests). One process owns a data directory at a time.
 *
 * @example
 * const store = await createEmbeddedKeyStore('.nodegate/db');
 */
export async function createEmbeddedKeyStore(dir: string | undefined): Promise<KeyStore> {
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const db = dir === undefined ? new PGlite() : new PGlite(dir);
  await db.exec(KEY_SCHEMA);
  const one = async (sql: string, params: unknown[]) => (await db.query<KeyRow>(sql, params)).rows[0];
  return {
    async insert(k) {
      const row = await one(SQL.insert, [k.key, k.secretHash, k.name, k.plan, k.dev]);
      return rowToRecord(row!);
    },
    async find(key) {
      const row = await one(SQL.find, [key]);
      return row && rowToRecord(row);
    },
    async list() {
      return (await db.query<KeyRow>(SQL.list)).rows.map(rowToRecord);
    },
    async revoke(key) {
      return (await one(SQL.revoke, [key])) !== undefined;
    },
    async findDevKey() {
      const row = await one(SQL.findDev, []);
      return row && rowToRecord(row);
    },
    async addUsage(key, metric, delta) {
      const row = (await db.query<{ value: string | number }>(SQL.addUsage, [key, metric, delta])).rows[0];
      return Number(row!.value);
    },
    async usage(key, metric) {
      const row = (await db.query<{ value: string | number }>(SQL.usage, [key, metric])).rows[0];
      return row === undefined ? 0 : Number(row.value);
    },
    async close() {
      await db.close();
    },
  };
}
