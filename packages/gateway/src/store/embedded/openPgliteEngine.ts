// Loaded by the database's worker thread by URL (see embeddedDatabaseWorker.ts): only `import type`
// from this package, so that it runs from its TypeScript source too.
import type { SqlStatement } from '../SqlConnection.js';
import type { EmbeddedEngine, EmbeddedEngineOptions } from './EmbeddedEngine.js';

/**
 * PGlite (PostgreSQL compiled to WebAssembly) at `options.path` (a directory; undefined: in
 * memory), speaking PostgreSQL's dialect. The embedded database of earlier versions: the gateway
 * opens it only to migrate such a data directory (`migratePgliteDataDir`), and the comparison
 * bench (`npm run bench -- embedded-db`) to measure it against SQLite. Loaded on demand, so it
 * costs nothing otherwise (its WebAssembly memory alone is about 200 MB).
 *
 * @example
 * const engine = await openPgliteEngine({ path: '/var/lib/nodegate/db', busyTimeoutMs: 5000 });
 */
export async function openPgliteEngine(options: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = options.path === undefined ? new PGlite() : new PGlite(options.path);
  await db.waitReady;
  return {
    dialect: 'postgres',
    async exec(script) {
      await db.exec(script);
    },
    async query(sql, params) {
      return { rows: (await db.query(sql, [...params])).rows };
    },
    transaction(statements: readonly SqlStatement[]) {
      return db.transaction(async (tx) => {
        const results: Array<{ rows: unknown[] }> = [];
        for (const s of statements) {
          if (s.each !== undefined) {
            const rows: unknown[] = [];
            for (const params of s.each) rows.push(...(await tx.query(s.sql, [...params])).rows);
            results.push({ rows });
            continue;
          }
          const { rows } = await tx.query(s.sql, [...(s.params ?? [])]);
          results.push({ rows });
          if (s.stopUnlessRows === true && rows.length === 0) break;
        }
        return results;
      });
    },
    async close() {
      await db.close();
    },
  };
}
