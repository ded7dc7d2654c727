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
}

/** A supervised backend: its address never changes across restarts. */
export interface SupervisedBackend extends EmbeddedProcess {
  /** How many times it was restarted. */
  restarts(): number;
  /** The pid of the current process (undefined while it is being restarted). */
  pid(): number | undefined;
}

/**
 * Starts a backend and keeps it running: when its process exits while the gateway did not ask
 * it to, the exit is logged (warn) and the backend is started again on the same port, so the
 * upstream URL the networks use stays valid, after a backoff (100 ms doubling to 5 s; reset after
 * 30 s up). A restart that fails (the port still held, say) is logged and retried with the next
 * delay. The pid file is rewritten on every start and removed on stop.
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
  await writeFile(pidFile, JSON.stringify({ pid: current.pid, marker }));

  const watch = (proc: StartedBackend) => {
    void proc.exited.then(({ code, signal }) => {
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
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await current?.stop();
      await rm(pidFile, { force: true });
    },
  };
}
