import cluster, { type Worker } from 'node:cluster';
import type { StartSummary } from '../cli/printStartSummary.js';
import type { Logger } from '../log/createLogger.js';
import type { InitMessage, PrimaryMessage, WorkerMessage } from './ClusterMessages.js';

/** One running worker process, as the primary sees it. */
export interface WorkerSlot {
  /** Its number, 1 … count (a replacement keeps the number of the worker it replaces). */
  readonly id: number;
  readonly pid: number | undefined;
  /** Sends it a message (nothing when it is gone). */
  send(message: PrimaryMessage): void;
}

/** How long a worker may take to be ready before it is counted as failed. */
const START_TIMEOUT_MS = 120_000;
/** A worker that ran this long before dying starts the backoff again from its first step. */
const STABLE_AFTER_MS = 60_000;
/** The first restart's delay, doubled for each crash in a row, up to the longest. */
const FIRST_RESTART_MS = 500;
const LONGEST_RESTART_MS = 30_000;

/** Workers' exits, and the one-line reasons for the log. */
const exitReason = (code: number | null, signal: string | null) =>
  signal ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`;

/**
 * The primary's workers (Node's `cluster`, which shares the listening port among them, handing
 * each new connection to the next worker in turn): forks `count` processes of `exec`, each sent
 * its `init`; the first alone until it is ready (it does a start's one-time work: the database's
 * migrations, the development key, the operator), then the others together. Once every worker was
 * ready, a worker that dies is logged (error) and replaced after a backoff (0.5 s, doubled for
 * each crash in a row of that worker, at most 30 s; reset after a minute of running), and its
 * replacement's start is logged (warn). `stop()` asks every worker to stop, waits for them (then
 * kills what is left) and replaces none from then on: their exits are not crashes.
 *
 * @example
 * const workers = superviseWorkers({ exec, count: 4, init, onMessage, onGone, log });
 * const summary = await workers.start(); // the first worker's summary
 * await workers.stop(30_000);
 */
export function superviseWorkers(options: {
  /** The worker's entry file. */
  exec: string;
  count: number;
  /** The `init` message of worker `id` (made before it is forked: `live()` does not count it yet). */
  init: (id: number, first: boolean) => InitMessage;
  /** Every message a worker sends once it is ready (and its progress, logs and access lines before). */
  onMessage: (slot: WorkerSlot, message: WorkerMessage) => void;
  /** The worker is gone (exited or killed): forget what it held. */
  onGone: (slot: WorkerSlot) => void;
  log: Logger;
}) {
  const { log } = options;
  const slots = new Map<number, WorkerSlot & { worker: Worker; readyAt: number | undefined }>();
  const crashes = new Map<number, number>();
  const restarts = new Map<number, NodeJS.Timeout>();
  let started = false;
  let stopping = false;

  cluster.setupPrimary({ exec: options.exec, args: [], serialization: 'advanced' });

  /** Forks worker `id`; resolves with its summary once it is ready, rejects when it dies first. */
  const launch = (id: number, first: boolean): Promise<StartSummary> =>
    new Promise((resolve, reject) => {
      // made before the worker is counted among the live ones
      const init = options.init(id, first);
      const worker = cluster.fork();
      const slot = {
        id,
        pid: worker.process.pid,
        worker,
        readyAt: undefined as number | undefined,
        send(message: PrimaryMessage) {
          if (!worker.isConnected()) return;
          try {
            worker.send(message);
          } catch {
            // gone meanwhile: its exit follows
          }
        },
      };
      slots.set(id, slot);
      let failure: string | undefined;
      const timer = setTimeout(() => {
        failure = `not ready within ${START_TIMEOUT_MS / 1000} s`;
        worker.process.kill('SIGKILL');
      }, START_TIMEOUT_MS);
      timer.unref();
      worker.on('message', (message: WorkerMessage) => {
        if (message.t === 'ready' && slot.readyAt === undefined) {
          clearTimeout(timer);
          slot.readyAt = Date.now();
          resolve(message.summary);
        } else if (message.t === 'failed' && slot.readyAt === undefined) {
          failure = message.message;
        } else options.onMessage(slot, message);
      });
      worker.on('error', () => {
        // the channel failed: its exit follows
      });
      worker.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (slots.get(id) === slot) slots.delete(id);
        options.onGone(slot);
        if (slot.readyAt === undefined) reject(new Error(`worker ${id}: ${failure ?? exitReason(code, signal)}`));
        // a worker that was serving, or a replacement that failed to start, is replaced; a worker
        // that fails during the start fails the start
        if (!stopping && (slot.readyAt !== undefined || started)) crashed(slot, code, signal);
      });
      slot.send(init);
    });

  const crashed = (
    slot: { id: number; pid: number | undefined; readyAt: number | undefined },
    code: number | null,
    signal: string | null,
  ) => {
    const ranLong = slot.readyAt !== undefined && Date.now() - slot.readyAt >= STABLE_AFTER_MS;
    const inARow = ranLong ? 1 : (crashes.get(slot.id) ?? 0) + 1;
    crashes.set(slot.id, inARow);
    const delay = Math.min(LONGEST_RESTART_MS, FIRST_RESTART_MS * 2 ** (inARow - 1));
    log.error(`worker ${slot.id} exited (${exitReason(code, signal)}); a new one starts in ${delay / 1000} s`, {
      worker: slot.id,
      pid: slot.pid,
      crashesInARow: inARow,
    });
    const timer = setTimeout(() => {
      restarts.delete(slot.id);
      if (stopping) return;
      launch(slot.id, false).then(
        () => log.warn(`worker ${slot.id} started again`, { worker: slot.id, pid: slots.get(slot.id)?.pid }),
        () => {
          // its exit was counted as the next crash (with a longer wait)
        },
      );
    }, delay);
    restarts.set(slot.id, timer);
  };

  return {
    /**
     * Starts every worker: the first, then (after `afterFirst` heard its summary) the others;
     * resolves with the first one's summary.
     */
    async start(afterFirst: (summary: StartSummary) => void = () => {}): Promise<StartSummary> {
      const summary = await launch(1, true);
      afterFirst(summary);
      const others: Array<Promise<StartSummary>> = [];
      for (let id = 2; id <= options.count; id++) others.push(launch(id, false));
      const results = await Promise.allSettled(others);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      started = true;
      return summary;
    },
    /** The workers running now. */
    live(): WorkerSlot[] {
      return [...slots.values()];
    },
    /** Stops every worker (`stop`, then SIGKILL after `timeoutMs`); none is replaced from now on. */
    async stop(timeoutMs: number): Promise<void> {
      stopping = true;
      for (const t of restarts.values()) clearTimeout(t);
      restarts.clear();
      const running = [...slots.values()];
      await Promise.all(
        running.map(
          (slot) =>
            new Promise<void>((resolve) => {
              if (slot.worker.isDead()) return resolve();
              const timer = setTimeout(() => slot.worker.process.kill('SIGKILL'), timeoutMs);
              slot.worker.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              slot.send({ t: 'stop' });
            }),
        ),
      );
    },
  };
}
