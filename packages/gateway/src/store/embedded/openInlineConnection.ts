import type { SqlQuery } from '../createSqlKeyStore.js';
import type { EmbeddedConnection } from './EmbeddedConnection.js';
import type { EmbeddedEngine, EmbeddedEngineName, EmbeddedEngineOptions } from './EmbeddedEngine.js';

/**
 * The embedded database `engine` on the calling thread: the same connection as
 * `startDatabaseWorker`'s, without the worker. Every statement then runs on the gateway's event
 * loop (PGlite: its WebAssembly; SQLite: the native call, for as long as it takes), which is what
 * the worker avoids; kept for the comparison bench (`npm run bench -- embedded-db`), which
 * measures both.
 *
 * @example
 * const conn = await openInlineConnection('sqlite', { path: undefined, busyTimeoutMs: 5000 });
 */
export async function openInlineConnection(
  engine: EmbeddedEngineName,
  options: EmbeddedEngineOptions,
): Promise<EmbeddedConnection> {
  const db: EmbeddedEngine =
    engine === 'sqlite'
      ? (await import('./openSqliteEngine.js')).openSqliteEngine(options)
      : await (await import('./openPgliteEngine.js')).openPgliteEngine(options);
  let closed = false;
  const open = () => {
    if (closed) throw new Error('the embedded database is closed');
  };
  return {
    dialect: db.dialect,
    query: (async (sql: string, params?: unknown[]) => {
      open();
      return db.query(sql, params ?? []);
    }) as SqlQuery,
    transaction: async (statements) => {
      open();
      return db.transaction(statements);
    },
    exec: async (script) => {
      open();
      await db.exec(script);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}
