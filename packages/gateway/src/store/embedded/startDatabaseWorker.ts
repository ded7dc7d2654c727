import { Worker } from 'node:worker_threads';
import type { SqlQuery } from '../createSqlKeyStore.js';
import type { SqlStatement } from '../SqlConnection.js';
import type { EmbeddedConnection } from './EmbeddedConnection.js';
import type { EmbeddedEngineName, EmbeddedEngineOptions, EngineError } from './EmbeddedEngine.js';
import type { WorkerReply, WorkerRequest } from './WorkerMessages.js';

/** The worker's entry, next to this file, with this file's extension (its TypeScript source under the tests). */
const ENTRY = new URL(`./embeddedDatabaseWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** How long `close` waits for the worker to close its database (a statement may still run). */
const CLOSE_TIMEOUT_MS = 5_000;
/** The worker's young generation (MB): see `resourceLimits` below. */
const WORKER_YOUNG_GENERATION_MB = 4;

/** An error the worker reported, with PostgreSQL's code and severity as the stores expect them. */
const fromEngineError = (e: EngineError): Error =>
  Object.assign(new Error(e.message), {
    ...(e.code === undefined ? {} : { code: e.code }),
    ...(e.severity === undefined ? {} : { severity: e.severity }),
  });

/**
 * Starts the embedded database `engine` in a worker thread of its own and resolves, once it is
 * open, to a connection whose every call is a message to it: nothing the database does (a usage
 * flush of thousands of rows, a migration, PGlite's WebAssembly) runs on the gateway's event loop.
 * The worker answers in the order it was asked; a caller that stops waiting (a deadline in
 * `guardQuery`) does not change that order. If the worker dies, the calls waiting on it fail
 * with an error without a `severity` (an outage for `guardQuery`: the health goes down) and the
 * next call starts a new worker over the same file. The worker keeps the process alive only
 * while a call is waiting.
 *
 * @example
 * const conn = await startDatabaseWorker('sqlite', { path: 'data/db/nodegate.db', busyTimeoutMs: 5000 });
 * const { rows } = await conn.query('SELECT count(*) AS n FROM api_keys');
 * await conn.close();
 */
export async function startDatabaseWorker(
  engine: EmbeddedEngineName,
  options: EmbeddedEngineOptions,
): Promise<EmbeddedConnection> {
  const pending = new Map<
    number,
    { worker: Worker; resolve: (reply: WorkerReply) => void; reject: (err: Error) => void }
  >();
  /** Calls waiting per worker: a worker keeps the process alive only while it has some. */
  const waiting = new WeakMap<Worker, number>();
  let nextId = 1;
  let closed = false;
  let current: Promise<Worker> | undefined;

  const start = (): Promise<Worker> => {
    const started: Promise<Worker> = new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(ENTRY, {
        workerData: { engine, options },
        // its garbage is small and short-lived (one message's rows at a time): a young generation
        // of its own this size, not the gateway's (`npm start` gives the gateway's a 32 MB
        // semi-space, which a worker would otherwise inherit and grow into under load)
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      let ready = false;
      let dead = false;
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          if (reply.ready) {
            ready = true;
            worker.unref();
            resolve(worker);
          } else reject(fromEngineError(reply.error));
          return;
        }
        const caller = pending.get(reply.id);
        if (caller === undefined) return;
        pending.delete(reply.id);
        const left = (waiting.get(worker) ?? 1) - 1;
        waiting.set(worker, left);
        if (left === 0) worker.unref();
        caller.resolve(reply);
      });
      // 'error' and then 'exit': the first one counts
      const gone = (why: string) => {
        if (dead) return;
        dead = true;
        if (!ready) {
          reject(new Error(`the embedded database did not start: ${why}`));
          return;
        }
        if (current === started) current = undefined;
        const err = new Error(`the embedded database's worker stopped: ${why}`);
        for (const [id, w] of pending) {
          if (w.worker !== worker) continue;
          pending.delete(id);
          w.reject(err);
        }
      };
      worker.on('error', (err) => gone(err.message));
      worker.on('exit', (code) => gone(`exit code ${code}`));
    });
    return started;
  };

  const call = async (
    request: WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never,
  ) => {
    if (closed) throw new Error('the embedded database is closed');
    current ??= start();
    const starting = current;
    const worker = await starting.catch((err: unknown) => {
      // the next call starts another
      if (current === starting) current = undefined;
      throw err;
    });
    const id = nextId++;
    return new Promise<{ rows?: unknown[]; results?: Array<{ rows: unknown[] }> }>((resolve, reject) => {
      const before = waiting.get(worker) ?? 0;
      waiting.set(worker, before + 1);
      if (before === 0) worker.ref();
      pending.set(id, {
        worker,
        resolve: (reply) => {
          const r = reply as { rows?: unknown[]; results?: Array<{ rows: unknown[] }>; error?: EngineError };
          if (r.error !== undefined) reject(fromEngineError(r.error));
          else resolve(r);
        },
        reject,
      });
      try {
        worker.postMessage({ ...request, id } as WorkerRequest);
      } catch (err) {
        // a parameter that cannot be sent (a function…): nothing was asked
        pending.delete(id);
        waiting.set(worker, before);
        if (before === 0) worker.unref();
        reject(Object.assign(err as Error, { code: '22023', severity: 'ERROR' }));
      }
    });
  };

  current = start();
  await current;
  return {
    dialect: engine === 'sqlite' ? 'sqlite' : 'postgres',
    query: (async (sql: string, params?: unknown[]) => ({
      rows: (await call({ op: 'query', sql, params: params ?? [] })).rows ?? [],
    })) as SqlQuery,
    transaction: async (statements: readonly SqlStatement[]) =>
      (await call({ op: 'transaction', statements })).results ?? [],
    exec: async (script) => {
      await call({ op: 'exec', script });
    },
    close: async () => {
      if (closed || current === undefined) {
        closed = true;
        return;
      }
      const worker = await current.catch(() => undefined);
      if (worker === undefined) {
        closed = true;
        return;
      }
      // a statement still running is waited for (SQLite's log keeps the file whole either way), up to a bound
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          call({ op: 'close' }),
          new Promise((resolve) => {
            timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
          }),
        ]);
      } finally {
        clearTimeout(timer);
        closed = true;
        await worker.terminate();
      }
    },
  };
}
