import { rm, writeFile } from 'node:fs/promises';
import type { Logger } from '../log/createLogger.js';
import type { EmbeddedProcess } from './startAnvil.js';

/** A started backend process, as the supervisor needs it. */
export interface StartedBackend extends EmbeddedProcess {
  readonly pid: number;
  readonly port: number;
  /** Resolves when the process exits, for whatever reason. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How a backend is supervised. */
export interface SuperviseOptions {
  readonly name: string;
  /** Starts the backend; `port` 0 the first time (a free port), then the port it had. */
  start(port: number): Promise<StartedBackend>;
  /** Where its pid file goes (for reaping after a gateway crash), and what its command line contains. */
  readonly pidFile: string;
  readonly marker: string;
  readonly log: Logger;
  /** Restart backoff: first delay, doubling up to `maxDelayMs`; reset once it stayed up `stableMs`. */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly stableMs?: number;
  /**
   * How long an exit that looks like a stop (code 0, 130 or 143, or SIGINT, SIGTERM or SIGHUP)
   * waits for the gateway's own stop before it counts as a crash (default 1,000 ms).
   */
  readonly stopGraceMs?: number;
}

/** A supervised backend: its address never changes across restarts. */
export interface SupervisedBackend extends EmbeddedProcess {
  /** How many times it was restarted. */
  restarts(): number;
  /** The pid of the current process (undefined while it is being restarted). */
  pid(): number | undefined;
  /**
   * The gateway is stopping: from now on the process's exit is expected (no warning, no
   * restart). Synchronous, so a stop signal's handler can say it before anything else runs.
   */
  expectStop(): void;
}

/** An exit a stop request ends in: a clean exit, or the signals (and shell codes) of Ctrl-C, kill and hang-up. */
const looksLikeStop = (code: number | null, signal: NodeJS.Signals | null) =>
  code === 0 || code === 130 || code === 143 || signal === 'SIGINT' || signal === 'SIGTERM' || signal === 'SIGHUP';

/**
 * Starts a backend and keeps it running: when its process exits while the gateway did not ask
 * it to, the exit is logged (warn) and the backend is started again on the same port, so the
 * upstream URL the networks use stays valid, after a backoff (100 ms doubling to 5 s; reset after
 * 30 s up). A restart that fails (the port still held, say) is logged and retried with the next
 * delay. The pid file is rewritten on every start and removed on stop.
 *
 * A stop is never taken for a crash: once `expectStop()` or `stop()` is called, exits are
 * expected. A terminal's Ctrl-C sends SIGINT to the whole process group, so a backend may stop
 * of it just before the gateway's own handler runs: an exit that looks like a stop (code 0,
 * 130 or 143, or SIGINT/SIGTERM/SIGHUP) waits up to `stopGraceMs` for the gateway's stop
 * before it is logged and restarted.
 *
 * @example
 * const anvil = await superviseBackend({ name: 'anvil', start: (port) => startAnvil({ port }), pidFile, marker, log });
 * anvil.http; // stays the same after anvil is killed and restarted
 */
export async function superviseBackend(options: SuperviseOptions): Promise<SupervisedBackend> {
  const { name, log, pidFile, marker } = options;
  const initialDelay = options.initialDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 5_000;
  const stableMs = options.stableMs ?? 30_000;
  let current: StartedBackend | undefined = await options.start(0);
  const port = current.port;
  const { http, ws } = current;
  let stopping = false;
  let restarts = 0;
  let delay = initialDelay;
  let startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopRequested!: () => void;
  const stopRequest = new Promise<void>((resolve) => {
    stopRequested = resolve;
  });
  const graceMs = options.stopGraceMs ?? 1_000;
  /** Resolves when the gateway stops, or after `ms`. */
  const stopWithin = async (ms: number) => {
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([stopRequest, new Promise<void>((resolve) => (grace = setTimeout(resolve, ms)))]);
    clearTimeout(grace);
  };
  await writeFile(pidFile, JSON.stringify({ pid: current.pid, marker }));

  const watch = (proc: StartedBackend) => {
    void proc.exited.then(async ({ code, signal }) => {
      if (stopping || proc !== current) return;
      // Ctrl-C reached the backend too: the gateway's own stop comes in a moment
      if (looksLikeStop(code, signal)) await stopWithin(graceMs);
      if (stopping || proc !== current) return;
      current = undefined;
      if (Date.now() - startedAt >= stableMs) delay = initialDelay;
      log.warn('embedded backend exited; restarting it', { backend: name, code, signal, restartInMs: delay });
      schedule();
    });
  };
  const schedule = () => {
    timer = setTimeout(async () => {
      timer = undefined;
      if (stopping) return;
      try {
        const proc = await options.start(port);
        if (stopping) {
          await proc.stop();
          return;
        }
        current = proc;
        restarts += 1;
        startedAt = Date.now();
        await writeFile(pidFile, JSON.stringify({ pid: proc.pid, marker })).catch(() => undefined);
        log.warn('embedded backend restarted', { backend: name, url: http, restarts });
        watch(proc);
      } catch (err) {
        log.error('embedded backend failed to restart; retrying', {
          backend: name,
          error: (err as Error).message,
          retryInMs: Math.min(delay * 2, maxDelay),
        });
        delay = Math.min(delay * 2, maxDelay);
        schedule();
        return;
      }
      delay = Math.min(delay * 2, maxDelay);
    }, delay);
  };
  watch(current);

  return {
    name,
    http,
    ws,
    restarts: () => restarts,
    pid: () => current?.pid,
    expectStop() {
      stopping = true;
      stopRequested();
      if (timer) clearTimeout(timer);
    },
    async stop() {
      stopping = true;
      stopRequested();
      if (timer) clearTimeout(timer);
      await current?.stop();
      await rm(pidFile, { force: true });
    },
  };
}
