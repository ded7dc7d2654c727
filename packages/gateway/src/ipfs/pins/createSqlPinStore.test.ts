import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { SqlQuery } from '../../store/createSqlKeyStore.js';
import type { Database } from '../../store/Database.js';
import { openEmbeddedDatabase } from '../../store/embedded/openEmbeddedDatabase.js';
import { createSqlPinStore } from './createSqlPinStore.js';
import { pinStoreContract } from './pinStoreContract.js';

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

// The embedded database (SQLite in its worker thread) in memory, one for the run: `reopen`
// returns a second store over the same database.
let embedded: Database | undefined;
const openSqlite = async () => {
  if (embedded === undefined) {
    const db = await openEmbeddedDatabase(undefined);
    embedded = db;
    closers.push(() => db.close());
  }
  return createSqlPinStore(embedded.sql);
};
pinStoreContract('embedded (SQLite, in memory)', openSqlite, openSqlite);

// PGlite in memory (the IPFS route's own store when it is given none), one database for the run (keys and CIDs are random): `reopen` returns a
// second store over the same database.
let memory: PGlite | undefined;
const pgliteQuery = (db: PGlite): SqlQuery => ((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery;
const openPglite = async () => {
  if (memory === undefined) {
    const db = new PGlite();
    memory = db;
    closers.push(() => db.close());
  }
  return createSqlPinStore(pgliteQuery(memory));
};
pinStoreContract('PGlite (in memory)', openPglite, openPglite);

// PostgreSQL: a unique schema per run, dropped afterwards.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `nodegate_pins_${randomBytes(6).toString('hex')}`;
let pool: pg.Pool | undefined;
const openPostgres = async () => {
  if (pool === undefined) {
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await admin.end();
    closers.push(async () => {
      const c = new pg.Client({ connectionString: URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });
  }
  if (pool !== undefined)
    return createSqlPinStore(((sql: string, params?: unknown[]) => pool!.query(sql, params)) as SqlQuery);
  const p = new pg.Pool({ connectionString: URL, max: 4, options: `-c search_path=${schema}` });
  pool = p;
  closers.push(() => p.end());
  return createSqlPinStore(((sql: string, params?: unknown[]) => p.query(sql, params)) as SqlQuery);
};
pinStoreContract('PostgreSQL', openPostgres, openPostgres);
