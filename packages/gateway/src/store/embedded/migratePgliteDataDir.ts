import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PIN_SCHEMA, SQLITE_PIN_SCHEMA } from '../../ipfs/pins/createSqlPinStore.js';
import type { Logger } from '../../log/createLogger.js';
import { USAGE_SCHEMA } from '../../usage/usageSql.js';
import { SQLITE_USAGE_SCHEMA } from '../../usage/usageSqliteSql.js';
import { makeTreePrivate } from '../makeTreePrivate.js';
import { SCHEMA, SQLITE_SCHEMA } from '../sql.js';
import type { EmbeddedConnection } from './EmbeddedConnection.js';
import { startDatabaseWorker } from './startDatabaseWorker.js';

/** The SQLite file's name in the directory (as `EMBEDDED_DB_FILE` of openEmbeddedDatabase, which imports this lazily). */
const DB_FILE = 'nodegate.db';
/** Written in the new directory once it holds everything, before the renames. */
const DONE = 'MIGRATED';
/** Rows read and written per message. */
const PAGE = 2_000;

/**
 * The tables copied, parents before children (foreign keys hold at every insert). `ordered`:
 * read whole in creation order, so that SQLite's rowid keeps the order among equal times; the
 * others are read in pages by `ctid`.
 */
const TABLES: ReadonlyArray<{ readonly name: string; readonly ordered?: string }> = [
  { name: 'accounts', ordered: 'created_at, seq' },
  { name: 'users' },
  { name: 'memberships' },
  { name: 'sessions' },
  { name: 'sign_in_tokens' },
  { name: 'invitations' },
  { name: 'admin_tokens' },
  { name: 'api_keys', ordered: 'created_at, seq' },
  { name: 'key_usage' },
  { name: 'usage_minute' },
  { name: 'usage_hour' },
  { name: 'usage_account_minute' },
  { name: 'usage_account_hour' },
  { name: 'usage_errors_minute' },
  { name: 'usage_errors_hour' },
  { name: 'usage_recent' },
  { name: 'usage_dead_letter' },
  { name: 'ipfs_pins' },
  { name: 'ipfs_unpinned' },
  { name: 'ipfs_gc_epoch' },
];

/** A PostgreSQL value as the SQLite tables keep it: times as epoch ms, JSON as text (booleans are bound 0/1). */
const sqliteValue = (v: unknown): unknown => {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array)) return JSON.stringify(v);
  return v;
};

/** What a migration did. */
export interface PgliteMigration {
  /** Where the PGlite database is kept now. */
  readonly keptAt: string;
  /** Rows copied per table (tables that held none are left out). */
  readonly rows: Readonly<Record<string, number>>;
}

/** `base`, or `base-2`, `base-3`… whichever does not exist. */
function freeName(base: string): string {
  if (!existsSync(base)) return base;
  for (let i = 2; ; i++) if (!existsSync(`${base}-${i}`)) return `${base}-${i}`;
}

/** Copies one table, in pages; resolves to the rows copied. */
async function copyTable(
  from: EmbeddedConnection,
  to: EmbeddedConnection,
  table: (typeof TABLES)[number],
): Promise<number> {
  const exists = await from.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table.name]);
  if (exists.rows[0]?.t == null) return 0;
  const theirs = new Set(
    (
      await from.query<{ column_name: string }>(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
        [table.name],
      )
    ).rows.map((r) => r.column_name),
  );
  const cols = (await to.query<{ name: string }>('SELECT name FROM pragma_table_info(?1)', [table.name])).rows
    .map((r) => r.name)
    .filter((c) => theirs.has(c));
  const list = cols.join(', ');
  const insert = `INSERT OR REPLACE INTO ${table.name} (${list}) VALUES (${cols.map((_, i) => `?${i + 1}`).join(', ')})`;
  const write = async (rows: Record<string, unknown>[]) => {
    if (rows.length > 0)
      await to.transaction([{ sql: insert, each: rows.map((r) => cols.map((c) => sqliteValue(r[c]))) }]);
  };
  if (table.ordered !== undefined) {
    const { rows } = await from.query<Record<string, unknown>>(
      `SELECT ${list} FROM ${table.name} ORDER BY ${table.ordered}`,
    );
    for (let i = 0; i < rows.length; i += PAGE) await write(rows.slice(i, i + PAGE));
    return rows.length;
  }
  let copied = 0;
  let after = '(0,0)';
  for (;;) {
    const { rows } = await from.query<Record<string, unknown> & { ctid: string }>(
      `SELECT ctid::text AS ctid, ${list} FROM ${table.name} WHERE ctid > $1::tid ORDER BY ctid LIMIT ${PAGE}`,
      [after],
    );
    await write(rows);
    copied += rows.length;
    if (rows.length < PAGE) return copied;
    after = rows[rows.length - 1]!.ctid;
  }
}

/**
 * Moves a data directory of an earlier version, whose embedded database was PGlite in `dir`, to
 * the embedded SQLite: PGlite is opened once in a worker thread of its own (its ~200 MB of
 * WebAssembly memory go with the worker), brought to the last PostgreSQL schema (as an earlier
 * gateway would have at its start), and every table (keys, accounts, sessions, invitations,
 * usage, IPFS pins) is copied into a new SQLite database in `<dir>.migrating`; then `dir` is
 * renamed `<dir>.pglite` (kept, for the operator to delete) and the new one takes its place.
 * Restartable: a migration cut short before the new directory was complete starts again from
 * the untouched PGlite directory; one cut between the two renames is finished. Does nothing when
 * `dir` holds no PGlite database.
 *
 * @example
 * await migratePgliteDataDir('/var/lib/nodegate/db', { busyTimeoutMs: 5000, log });
 * // /var/lib/nodegate/db/nodegate.db, and the old database in /var/lib/nodegate/db.pglite
 */
export async function migratePgliteDataDir(
  dir: string,
  options: { busyTimeoutMs: number; log?: Logger | undefined },
): Promise<PgliteMigration | undefined> {
  const staging = `${dir}.migrating`;
  if (!existsSync(dir) && existsSync(join(staging, DONE))) {
    // the new directory was complete and the old one already renamed: finish
    await rename(staging, dir);
    await rm(join(dir, DONE), { force: true });
    return undefined;
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) return undefined;
  const started = Date.now();
  options.log?.warn('migrating the embedded database from PGlite to SQLite (once)', { dir });
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  const rows: Record<string, number> = {};
  let from: EmbeddedConnection | undefined;
  let to: EmbeddedConnection | undefined;
  try {
    from = await startDatabaseWorker('pglite', { path: dir, busyTimeoutMs: options.busyTimeoutMs });
    to = await startDatabaseWorker('sqlite', { path: join(staging, DB_FILE), busyTimeoutMs: options.busyTimeoutMs });
    await from.exec(SCHEMA);
    await from.exec(USAGE_SCHEMA);
    for (const statement of PIN_SCHEMA) await from.exec(statement);
    await to.transaction([...SQLITE_SCHEMA, ...SQLITE_USAGE_SCHEMA, ...SQLITE_PIN_SCHEMA].map((sql) => ({ sql })));
    for (const table of TABLES) {
      const n = await copyTable(from, to, table);
      if (n > 0) rows[table.name] = n;
    }
  } catch (err) {
    throw new Error(
      `cannot migrate the embedded database in ${dir} from PGlite to SQLite: ${(err as Error).message}. ` +
        `The PGlite database is left in ${dir}: the earlier version of the gateway still opens it`,
    );
  } finally {
    await to?.close().catch(() => {});
    await from?.close().catch(() => {});
  }
  await writeFile(join(staging, DONE), `${new Date().toISOString()}\n`, { mode: 0o600 });
  const keptAt = freeName(`${dir}.pglite`);
  await rename(dir, keptAt);
  await rename(staging, dir);
  await rm(join(dir, DONE), { force: true });
  await makeTreePrivate(keptAt).catch(() => 0);
  options.log?.warn(
    'migrated the embedded database from PGlite to SQLite; delete the old one once you no longer need it',
    {
      dir,
      keptAt,
      rows,
      ms: Date.now() - started,
    },
  );
  return { keptAt, rows };
}
