import { resolve } from 'node:path';
import type { StartSummary } from '../cli/printStartSummary.js';
import type { GatewayConfig } from '../config/types.js';
import { embeddedBackendsOf } from '../embedded/embeddedBackendsOf.js';
import { startEmbeddedBackends } from '../embedded/startEmbeddedBackends.js';
import type { LogLevel } from '../log/createLogger.js';
import type { LogOutput } from '../log/createLogOutput.js';
import { processMetricsRegistry } from '../metrics/processMetricsRegistry.js';
import { acquireDataDirLock } from '../store/acquireDataDirLock.js';
import { prepareDataDir } from '../store/prepareDataDir.js';
import type { BackendEndpoint, InitMessage, MetricsPart, WorkerMessage } from './ClusterMessages.js';
import { servePrimarySubscriptions } from './servePrimarySubscriptions.js';
import { superviseWorkers, type WorkerSlot } from './superviseWorkers.js';

/** How long the workers have to stop (flush usage, close connections) before they are killed. */
const STOP_TIMEOUT_MS = 30_000;
/** How long a gathered scrape or a TLS reload waits for the workers' answers. */
const ANSWER_TIMEOUT_MS = 3_000;
/** The worker's entry file, beside this one (in `dist/cluster/`). */
const WORKER_ENTRY = new URL('./workerMain.js', import.meta.url).pathname;

/** A gateway run as a primary process and its workers. */
export interface ClusterGateway {
  /** The first worker's summary (every worker serves the same). */
  readonly summary: StartSummary;
  readonly workers: number;
  /** SIGHUP with TLS: every worker reads the certificate again; resolves with the line to print. */
  readonly reloadTls: (() => Promise<string>) | undefined;
  /** Stops every worker, then the embedded backends, and lets the data directory go. */
  close(): Promise<void>;
}

/**
 * `nodegate start --workers N` (N > 1): this process becomes the primary. It prepares and locks
 * the data directory (one lock for the whole gateway), starts the embedded backends once, and
 * starts N workers (`workerMain.ts`, through {@link superviseWorkers}) that listen on one shared
 * port, each a whole gateway over the same database and Redis (limits, eth filters, sign-in counts,
 * key changes and the Redis cache are shared through it, as between instances), reaching the
 * backends by URL. The primary also holds what must be one per gateway: the upstream subscription
 * connections ({@link servePrimarySubscriptions}), the log's writers (workers send it their lines),
 * the scrape of every process's metrics, and the signals (it relays SIGHUP's reload to each worker
 * and stops them all on SIGINT/SIGTERM). The first worker does the start's one-time work and its
 * progress lines are the summary's; later workers (and replacements) listen on the port it got,
 * and only the first runs the scheduled IPFS garbage collection.
 *
 * @example
 * const gateway = await startClusterPrimary(config, { workers: 4, output, progress: console.log });
 * console.log(gateway.summary.url);
 * await gateway.close();
 */
export async function startClusterPrimary(
  config: GatewayConfig,
  options: {
    workers: number;
    output: LogOutput;
    progress: (line: string) => void;
    logLevel?: LogLevel | undefined;
  },
): Promise<ClusterGateway> {
  const { output, progress } = options;
  const log = output.logger;
  const dataDir = resolve(config.dataDir);
  await prepareDataDir(dataDir, log);
  const cleanups: Array<() => Promise<void>> = [];
  const stopping: Array<() => void> = [];
  const close = async () => {
    for (const s of stopping) s();
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    // one gateway per data directory, its workers together (the embedded database's file and the
    // backends' supervision are this gateway's)
    if (config.database.kind === 'embedded' || embeddedBackendsOf(config).size > 0) {
      cleanups.push(await acquireDataDirLock(dataDir));
    }
    const started = await startEmbeddedBackends(config, progress, log);
    stopping.push(() => started.expectStop());
    cleanups.push(() => started.stop());
    const backends = new Map<string, BackendEndpoint>(
      [...started.backends].map(([name, b]) => [name, { http: b.http, ...(b.ws ? { ws: b.ws } : {}) }]),
    );
    const access = config.log.access ? output.openAccessLog(dataDir) : undefined;
    const subscriptions = servePrimarySubscriptions(config, backends);
    cleanups.push(async () => subscriptions.close());

    // The workers listen with the config's port: with port 0 the cluster gives them all the port
    // the first one got (they share its handle). Once every worker is gone that handle is closed, so
    // a replacement started then asks for that port itself (and the ones after it, to share it).
    let got: { listen: number; metrics: number | undefined } | undefined;
    let ports: { listen: number; metrics: number | undefined } | undefined;
    const initOf = (id: number, first: boolean): InitMessage => {
      if (got && workers.live().length === 0) ports = got;
      return {
        t: 'init',
        id,
        count: options.workers,
        first,
        config: workerConfig(config, id, ports),
        backends: [...backends],
        logLevel: options.logLevel,
        logFormat: output.format,
        accessWhere: access?.where,
      };
    };
    const answers = createAnswers();
    const onMessage = (slot: WorkerSlot, m: WorkerMessage) => {
      switch (m.t) {
        case 'progress':
          progress(m.line);
          return;
        case 'log':
          log[m.level](m.msg, { ...m.fields, worker: slot.id });
          return;
        case 'access':
          if (access) for (const line of m.lines) access.write(line);
          return;
        case 'metrics-gather':
          void gatherMetrics(workers.live(), answers).then((parts) =>
            slot.send({ t: 'metrics-gathered', ref: m.ref, parts }),
          );
          return;
        case 'metrics-part':
          answers.answer(m.ref, { worker: String(slot.id), metrics: m.metrics });
          return;
        case 'tls-reloaded':
          answers.answer(m.ref, m);
          return;
        case 'sub-open':
        case 'sub-subscribe':
        case 'sub-unsubscribe':
        case 'sub-close':
          subscriptions.handle(slot, m);
          return;
        case 'ready':
        case 'failed':
          return;
      }
    };
    const workers = superviseWorkers({
      exec: WORKER_ENTRY,
      count: options.workers,
      init: initOf,
      onMessage,
      onGone: (slot) => subscriptions.gone(slot),
      log,
    });
    cleanups.push(() => workers.stop(STOP_TIMEOUT_MS));
    // stopping: the workers' exits are expected from now on (a terminal's Ctrl-C reached them too)
    stopping.push(() => void workers.stop(STOP_TIMEOUT_MS));
    const summary = await workers.start((first) => {
      got = {
        listen: Number(new URL(first.url).port),
        metrics: first.metricsUrl ? Number(new URL(first.metricsUrl).port) : undefined,
      };
    });
    const pids = workers
      .live()
      .map((w) => w.pid)
      .join(', ');
    progress(
      `workers: ${options.workers} processes share the port (pids ${pids}; this one, ${process.pid}, is the primary)`,
    );
    return {
      summary,
      workers: options.workers,
      reloadTls: summary.tls ? () => reloadEveryWorker(workers.live(), answers) : undefined,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The config a worker runs: the primary's, with the ports the first worker got when `ports` says
 * (a replacement started after every worker died: see `initOf`), and the
 * scheduled IPFS garbage collection on the first worker only (one is enough for the node).
 */
function workerConfig(
  config: GatewayConfig,
  id: number,
  ports: { listen: number; metrics: number | undefined } | undefined,
): GatewayConfig {
  const metricsListen = config.metrics.listen;
  return {
    ...config,
    ...(ports ? { listen: { ...config.listen, port: ports.listen } } : {}),
    ...(ports?.metrics !== undefined && metricsListen
      ? { metrics: { ...config.metrics, listen: { ...metricsListen, port: ports.metrics } } }
      : {}),
    ...(config.ipfs && id > 1 ? { ipfs: { ...config.ipfs, gc: { ...config.ipfs.gc, intervalMs: 0 } } } : {}),
  };
}

/** Requests to the workers, answered by `ref`, each with a deadline. */
function createAnswers() {
  let nextRef = 1;
  const waiting = new Map<number, (answer: unknown) => void>();
  return {
    /** Sends a request to each worker (`send(slot, ref)`); resolves with the answers that came in time. */
    ask<T>(slots: readonly WorkerSlot[], send: (slot: WorkerSlot, ref: number) => void): Promise<T[]> {
      const ref = nextRef++;
      const got: T[] = [];
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(ref);
          resolve(got);
        };
        const timer = setTimeout(done, ANSWER_TIMEOUT_MS);
        waiting.set(ref, (answer) => {
          got.push(answer as T);
          if (got.length >= slots.length) done();
        });
        if (slots.length === 0) return done();
        for (const slot of slots) send(slot, ref);
      });
    },
    answer(ref: number, answer: unknown): void {
      waiting.get(ref)?.(answer);
    },
  };
}

/** Every worker's metrics, and the primary's own process metrics (`worker="primary"`). */
async function gatherMetrics(
  slots: readonly WorkerSlot[],
  answers: ReturnType<typeof createAnswers>,
): Promise<MetricsPart[]> {
  const [own, parts] = await Promise.all([
    processMetricsRegistry().getMetricsAsJSON(),
    answers.ask<MetricsPart>(slots, (slot, ref) => slot.send({ t: 'metrics-collect', ref })),
  ]);
  return [{ worker: 'primary', metrics: own }, ...parts];
}

/** SIGHUP: each worker reads the certificate again; one line says how it went. */
async function reloadEveryWorker(slots: readonly WorkerSlot[], answers: ReturnType<typeof createAnswers>) {
  const results = await answers.ask<Extract<WorkerMessage, { t: 'tls-reloaded' }>>(slots, (slot, ref) =>
    slot.send({ t: 'tls-reload', ref }),
  );
  const refused = results.find((r) => !r.ok);
  const missing = slots.length - results.length;
  const unanswered = missing > 0 ? ` (${missing} of ${slots.length} workers did not answer)` : '';
  if (refused) {
    return `nodegate: SIGHUP: TLS reload refused (${refused.error}); still serving ${refused.certificate}${unanswered}`;
  }
  const certificate = results[0]?.certificate ?? 'nothing new';
  return `nodegate: SIGHUP: TLS certificate reloaded by ${results.length} workers: ${certificate}${unanswered}`;
}
