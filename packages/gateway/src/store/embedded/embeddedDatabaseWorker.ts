// The embedded database's own thread: started by startDatabaseWorker, never imported. It loads its
// engine by URL, with this file's own extension, and imports nothing else of this package but
// types, so that it runs from its TypeScript source (tests) as from the build.
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddedEngine, EmbeddedEngineName, EmbeddedEngineOptions, EngineError } from './EmbeddedEngine.js';
import type { WorkerReply, WorkerRequest } from './WorkerMessages.js';

const { engine: name, options } = workerData as { engine: EmbeddedEngineName; options: EmbeddedEngineOptions };
const port = parentPort!;
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

const toEngineError = (err: unknown): EngineError => {
  const e = err as { message?: unknown; code?: unknown; severity?: unknown } | null;
  return {
    message: typeof e?.message === 'string' ? e.message : String(err),
    code: typeof e?.code === 'string' ? e.code : undefined,
    severity: typeof e?.severity === 'string' ? e.severity : undefined,
  };
};

let engine: EmbeddedEngine;
try {
  if (name === 'sqlite') {
    const m = (await import(new URL(`./openSqliteEngine${ext}`, import.meta.url).href)) as {
      openSqliteEngine(o: EmbeddedEngineOptions): EmbeddedEngine;
    };
    engine = m.openSqliteEngine(options);
  } else {
    const m = (await import(new URL(`./openPgliteEngine${ext}`, import.meta.url).href)) as {
      openPgliteEngine(o: EmbeddedEngineOptions): Promise<EmbeddedEngine>;
    };
    engine = await m.openPgliteEngine(options);
  }
} catch (err) {
  port.postMessage({ ready: false, error: toEngineError(err) } satisfies WorkerReply);
  port.close();
  process.exit(0);
}
port.postMessage({ ready: true } satisfies WorkerReply);

/** One request at a time, in the order they came (SQLite's calls are synchronous anyway). */
async function handle(m: WorkerRequest): Promise<WorkerReply> {
  switch (m.op) {
    case 'query':
      return { id: m.id, rows: (await engine.query(m.sql, m.params)).rows };
    case 'transaction':
      return { id: m.id, results: await engine.transaction(m.statements) };
    case 'exec':
      await engine.exec(m.script);
      return { id: m.id };
    case 'close':
      await engine.close();
      return { id: m.id };
  }
}

let tail: Promise<unknown> = Promise.resolve();
port.on('message', (m: WorkerRequest) => {
  tail = tail.then(async () => {
    let reply: WorkerReply;
    try {
      reply = await handle(m);
    } catch (err) {
      reply = { id: m.id, error: toEngineError(err) };
    }
    port.postMessage(reply);
    if (m.op === 'close') port.close();
  });
});
