// Loaded by the database's worker thread by URL (see embeddedDatabaseWorker.ts): only `import type`
// from this package, so that it runs from its TypeScript source too.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqlStatement } from '../SqlConnection.js';
import type { EmbeddedEngine, EmbeddedEngineOptions } from './EmbeddedEngine.js';

/** Prepared statements kept per connection (the stores' statements, and the usage queries' shapes). */
const STATEMENT_CACHE = 256;
/** The write-ahead log is cut back to this after a checkpoint (bytes). */
const WAL_LIMIT = 64 * 1024 * 1024;

/** SQLite's extended result codes -> PostgreSQL's SQLSTATE for the same condition. */
const CONSTRAINTS: Record<number, string> = {
  275: '23514', // CHECK
  787: '23503', // FOREIGNKEY
  1299: '23502', // NOTNULL
  1555: '23505', // PRIMARYKEY
  2067: '23505', // UNIQUE
  2323: '23505', // ROWID
};
/** SQLite's primary result codes -> SQLSTATE. */
const PRIMARY: Record<number, string> = {
  5: '55P03', // BUSY: another process held the lock past the busy timeout
  6: '55P03', // LOCKED
  7: '53200', // NOMEM
  8: '58030', // READONLY (the file cannot be written)
  9: '57014', // INTERRUPT
  10: '58030', // IOERR
  11: '58030', // CORRUPT
  13: '53100', // FULL
  14: '58030', // CANTOPEN
  15: '58030', // PROTOCOL
  18: '54000', // TOOBIG
  19: '23000', // CONSTRAINT (other kinds)
  20: '22000', // MISMATCH
  25: '42P02', // RANGE (a parameter index)
  26: '58030', // NOTADB
};

/**
 * A failure of `node:sqlite` as an error with PostgreSQL's `code` (SQLSTATE) and `severity`, so
 * that the stores' one error handling (row faults set aside, unique violations, outages in
 * `guardQuery`) holds for both dialects: e.g. a UNIQUE violation is 23505, a CHECK 23514, busy
 * past the busy timeout 55P03, an I/O error or a corrupt file 58030 (an outage). A value the
 * driver cannot bind is 22023.
 */
function sqlError(err: unknown): Error {
  const e = err as { message?: unknown; errcode?: unknown; code?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  let code = '22023';
  if (typeof e?.errcode === 'number') {
    code = CONSTRAINTS[e.errcode] ?? PRIMARY[e.errcode & 0xff] ?? '42000';
  }
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/** A parameter as SQLite binds it: integers exactly (not as REAL), booleans 1/0, times as epoch ms. */
function bindable(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isSafeInteger(v) ? BigInt(v) : v;
    case 'boolean':
      return v ? 1n : 0n;
    case 'undefined':
      return null;
    case 'object':
      if (v instanceof Date) return BigInt(v.getTime());
      return v;
    default:
      return v;
  }
}

/** Integers are read as bigint (a sum past 2^53 would throw otherwise) and given back as numbers. */
function readable(rows: unknown[]): unknown[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'bigint') row[k] = Number(v);
    }
  }
  return rows;
}

interface Prepared {
  readonly stmt: StatementSync;
  /** The highest `?N` the statement uses: it binds that many parameters. */
  readonly arity: number;
  /** Whether it returns rows (a SELECT, or RETURNING). */
  readonly returns: boolean;
}

/**
 * The embedded SQLite database (`node:sqlite`, native, in this process) at `options.path` (a file;
 * undefined: in memory). Write-ahead log (readers never wait for the writer, and another process
 * may open the file: a statement that needs a lock another process holds waits up to
 * `busyTimeoutMs`, then fails busy), full fsync at each commit (a revocation survives a power
 * cut), foreign keys enforced. Statements are prepared once and kept; parameters are numbered
 * `?1`, `?2`… Runs synchronously: the gateway runs it in its database worker thread.
 *
 * @example
 * const engine = openSqliteEngine({ path: '/var/lib/nodegate/db/nodegate.db', busyTimeoutMs: 5000 });
 * engine.query('SELECT key FROM api_keys WHERE key = ?1', [key]);
 */
export function openSqliteEngine(options: EmbeddedEngineOptions): EmbeddedEngine {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(options.path ?? ':memory:', {
      timeout: options.busyTimeoutMs,
      readBigInts: true,
      enableForeignKeyConstraints: true,
    });
    if (options.path !== undefined) {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA journal_size_limit = ${WAL_LIMIT}`);
    }
    db.exec('PRAGMA synchronous = FULL');
  } catch (err) {
    throw sqlError(err);
  }
  const cache = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    const found = cache.get(sql);
    if (found !== undefined) {
      // most recently used last: the first entry is the one to drop
      cache.delete(sql);
      cache.set(sql, found);
      return found;
    }
    const stmt = db.prepare(sql);
    let arity = 0;
    for (const m of sql.matchAll(/\?(\d+)/g)) arity = Math.max(arity, Number(m[1]));
    const prepared = { stmt, arity, returns: stmt.columns().length > 0 };
    if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(sql, prepared);
    return prepared;
  };
  const run = (p: Prepared, params: readonly unknown[]): unknown[] => {
    const args = params.slice(0, p.arity).map(bindable) as Parameters<StatementSync['all']>;
    if (p.returns) return readable(p.stmt.all(...args));
    p.stmt.run(...args);
    return [];
  };

  return {
    dialect: 'sqlite',
    exec(script) {
      try {
        db.exec(script);
      } catch (err) {
        throw sqlError(err);
      }
    },
    query(sql, params) {
      try {
        return { rows: run(prepare(sql), params) };
      } catch (err) {
        throw sqlError(err);
      }
    },
    transaction(statements: readonly SqlStatement[]) {
      const results: Array<{ rows: unknown[] }> = [];
      try {
        db.exec('BEGIN IMMEDIATE');
        for (const s of statements) {
          const p = prepare(s.sql);
          if (s.each !== undefined) {
            const rows: unknown[] = [];
            for (const params of s.each) for (const r of run(p, params)) rows.push(r);
            results.push({ rows });
            continue;
          }
          const rows = run(p, s.params ?? []);
          results.push({ rows });
          if (s.stopUnlessRows === true && rows.length === 0) break;
        }
        db.exec('COMMIT');
        return results;
      } catch (err) {
        try {
          if (db.isTransaction) db.exec('ROLLBACK');
        } catch {
          // SQLite rolled it back itself (some errors do); the statement's error is the one to report
        }
        throw sqlError(err);
      }
    },
    close() {
      cache.clear();
      if (db.isOpen) db.close();
    },
  };
}
