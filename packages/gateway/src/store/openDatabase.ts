import { join } from 'node:path';
import type { GatewayConfig } from '../config/types.js';
import type { Database } from './Database.js';
import { openEmbeddedDatabase } from './embedded/openEmbeddedDatabase.js';
import { openPostgresDatabase } from './postgres/openPostgresDatabase.js';

/**
 * Opens the database the config names: the embedded PGlite in `<dataDir>/db`, or PostgreSQL.
 * Keys, accounts and (through `query`) usage share this one connection.
 *
 * @example
 * const db = await openDatabase(config, dataDir);
 * const operator = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl });
 * // …
 * await db.close();
 */
export function openDatabase(config: Pick<GatewayConfig, 'database'>, dataDir: string): Promise<Database> {
  if (config.database.kind === 'embedded') return openEmbeddedDatabase(join(dataDir, 'db'));
  return openPostgresDatabase(config.database.url, config.database.schema ? { schema: config.database.schema } : {});
}
