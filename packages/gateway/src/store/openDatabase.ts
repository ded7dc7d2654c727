import { join } from 'node:path';
import type { GatewayConfig } from '../config/types.js';
import type { Logger } from '../log/createLogger.js';
import type { Database } from './Database.js';
import { type EmbeddedDatabaseOptions, openEmbeddedDatabase } from './embedded/openEmbeddedDatabase.js';
import { makeTreePrivate } from './makeTreePrivate.js';
import { openPostgresDatabase } from './postgres/openPostgresDatabase.js';

/**
 * Opens the database the config names: the embedded SQLite in `<dataDir>/db` (in a worker
 * thread; a PGlite database an earlier version left there is migrated first), or PostgreSQL.
 * Keys, accounts and (through `sql`) usage and IPFS pins share this one connection. The embedded
 * database's files are made private (0600, directories 0700) once it is open: they hold key and
 * password hashes (the gateway's umask makes them so already; an older directory, or one made
 * by hand, may not be). `embedded` chooses the embedded engine and thread (the comparison bench
 * only).
 *
 * @example
 * const db = await openDatabase(config, dataDir);
 * const operator = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl });
 * // …
 * await db.close();
 */
export function openDatabase(
  config: Pick<GatewayConfig, 'database'>,
  dataDir: string,
  log?: Logger | undefined,
  embedded: Pick<EmbeddedDatabaseOptions, 'engine' | 'thread'> = {},
): Promise<Database> {
  const d = config.database;
  if (d.kind === 'embedded') {
    const dir = join(dataDir, 'db');
    return openEmbeddedDatabase(dir, { ...embedded, queryTimeoutMs: d.queryTimeoutMs, log }).then((db) =>
      madePrivate(db, dir),
    );
  }
  return openPostgresDatabase(d.url, {
    ...(d.schema ? { schema: d.schema } : {}),
    queryTimeoutMs: d.queryTimeoutMs,
    connectTimeoutMs: d.connectTimeoutMs,
    log,
  });
}

/** `db` once the files under `dir` are private; closed when they cannot be made so. */
async function madePrivate(db: Database, dir: string): Promise<Database> {
  try {
    await makeTreePrivate(dir);
    return db;
  } catch (err) {
    await db.close();
    throw new Error(`cannot make the embedded database's files private: ${(err as Error).message}`);
  }
}
