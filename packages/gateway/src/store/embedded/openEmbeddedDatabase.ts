import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createDependencyHealth } from '../../health/createDependencyHealth.js';
import type { Logger } from '../../log/createLogger.js';
import { createDatabase } from '../createDatabase.js';
import type { Database } from '../Database.js';
import { guardQuery } from '../guardQuery.js';
import { SCHEMA, SQLITE_SCHEMA } from '../sql.js';
import type { EmbeddedConnection } from './EmbeddedConnection.js';
import type { EmbeddedEngineName } from './EmbeddedEngine.js';
import { openInlineConnection } from './openInlineConnection.js';
import { startDatabaseWorker } from './startDatabaseWorker.js';

/** The default of `database.queryTimeoutMs` for the embedded database. */
export const DEFAULT_EMBEDDED_QUERY_TIMEOUT_MS = 5_000;

/** The embedded SQLite database's file in its directory (with `-wal` and `-shm` beside it while open). */
export const EMBEDDED_DB_FILE = 'nodegate.db';

/** Options of {@link openEmbeddedDatabase}. */
export interface EmbeddedDatabaseOptions {
  /** Each statement's deadline (`guardQuery`), and how long SQLite waits for another process's lock. */
  readonly queryTimeoutMs?: number | undefined;
  readonly log?: Logger | undefined;
  /**
   * `sqlite` (the default), or `pglite`: PGlite in `dir` itself, as earlier versions kept it (the
   * comparison bench, `npm run bench -- embedded-db`; nothing else).
   */
  readonly engine?: EmbeddedEngineName | undefined;
  /**
   * `worker` (the default): the database runs in a worker thread of its own. `inline`: on the
   * caller's thread, for the comparison bench only (every statement then blocks the event loop).
   */
  readonly thread?: 'worker' | 'inline' | undefined;
}

/**
 * How long a statement waits for another process's write lock: a little less than its deadline,
 * so that it fails busy (a 503 that leaves the database up: it answers, another process holds it)
 * before the deadline would count the database as away.
 */
const busyTimeoutOf = (timeoutMs: number) => Math.max(1, Math.floor(timeoutMs * 0.8));

/** Whether `dir` holds a PGlite database of an earlier version, or a migration from one cut short. */
const pgliteToMigrate = (dir: string) =>
  existsSync(join(dir, 'PG_VERSION')) || (!existsSync(dir) && existsSync(`${dir}.migrating`));

/**
 * The embedded database: SQLite (`node:sqlite`, native) in `dir/nodegate.db`, run in a worker
 * thread of its own (`startDatabaseWorker`): no statement, flush or migration runs on the
 * gateway's event loop. `dir` undefined keeps it in memory. Applies the current schema. A
 * directory an earlier version left with a PGlite database is migrated first
 * (`migratePgliteDataDir`: the old one kept beside it as `<dir>.pglite`); PGlite is loaded only
 * then.
 *
 * It has the same interface as PostgreSQL's, timeouts and health included: every statement goes
 * through `guardQuery` with `queryTimeoutMs` (a statement waiting longer, e.g. behind a long one
 * in the worker's queue or on another process's lock, fails with a 503 while the worker keeps its
 * order) and `db.health` probes it every second.
 *
 * **Concurrency**: the file is in write-ahead-log mode. One gateway owns a data directory
 * (`gateway.pid`), and the CLI's in-process commands take the same lock, but any other process
 * may open the file (a backup, `sqlite3`): readers never wait; a writer waits for another's write
 * lock up to 80% of `queryTimeoutMs` (SQLite's busy timeout), then fails busy (a 503 that leaves
 * the database's health up).
 *
 * @example
 * const db = await openEmbeddedDatabase('.nodegate/db');
 * const { keys, accounts } = db;
 * await db.close();
 */
export async function openEmbeddedDatabase(
  dir: string | undefined,
  options: EmbeddedDatabaseOptions = {},
): Promise<Database> {
  const engine = options.engine ?? 'sqlite';
  const timeoutMs = options.queryTimeoutMs ?? DEFAULT_EMBEDDED_QUERY_TIMEOUT_MS;
  if (dir !== undefined && engine === 'sqlite' && pgliteToMigrate(dir)) {
    const { migratePgliteDataDir } = await import('./migratePgliteDataDir.js');
    await migratePgliteDataDir(dir, { busyTimeoutMs: busyTimeoutOf(timeoutMs), log: options.log });
  }
  if (dir !== undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = dir === undefined ? undefined : engine === 'sqlite' ? join(dir, EMBEDDED_DB_FILE) : dir;
  const open = options.thread === 'inline' ? openInlineConnection : startDatabaseWorker;
  let conn: EmbeddedConnection;
  try {
    conn = await open(engine, { path, busyTimeoutMs: busyTimeoutOf(timeoutMs) });
  } catch (err) {
    throw new Error(`cannot open the embedded database: ${(err as Error).message}`);
  }
  try {
    if (conn.dialect === 'sqlite') await conn.transaction(SQLITE_SCHEMA.map((sql) => ({ sql })));
    else await conn.exec(SCHEMA);
  } catch (err) {
    await conn.close();
    throw new Error(`cannot open the embedded database: ${(err as Error).message}`);
  }
  const health = createDependencyHealth({
    name: 'database',
    probe: () => conn.query('SELECT 1'),
    timeoutMs,
    log: options.log,
  });
  return createDatabase(
    'embedded',
    guardQuery(conn, { timeoutMs, health }),
    async () => {
      health.close();
      await conn.close();
    },
    health,
  );
}
