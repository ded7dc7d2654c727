import type { PrimaryMessage, WorkerMessage } from './ClusterMessages.js';

type Handler<T extends PrimaryMessage['t']> = (message: Extract<PrimaryMessage, { t: T }>) => void;

/** A worker's end of the IPC channel to its primary process. */
export interface PrimaryLink {
  /** Sends a message; false when the channel is closed (the primary is gone) or the message cannot be sent. */
  send(message: WorkerMessage): boolean;
  /** Handles every message of one kind (one handler per kind). */
  on<T extends PrimaryMessage['t']>(t: T, handler: Handler<T>): void;
  /** Bytes of messages handed to the channel and not written yet (what a slow primary holds back). */
  backlog(): number;
}

/**
 * The worker's end of the cluster channel (`process.send` and `process.on('message')`), with
 * messages dispatched by their `t`. A message that cannot be cloned or sent is dropped (and
 * `send` says false) rather than thrown into the caller: a log line must never fail a request.
 *
 * @example
 * const link = createPrimaryLink(process);
 * link.on('stop', () => void gw.close().then(() => process.exit(0)));
 * link.send({ t: 'progress', line: 'database: PostgreSQL' });
 */
export function createPrimaryLink(proc: NodeJS.Process): PrimaryLink {
  const handlers = new Map<string, (message: PrimaryMessage) => void>();
  let backlog = 0;
  proc.on('message', (message: PrimaryMessage) => {
    if (typeof message !== 'object' || message === null || typeof message.t !== 'string') return;
    handlers.get(message.t)?.(message);
  });
  return {
    send(message) {
      if (!proc.connected || proc.send === undefined) return false;
      // a rough size, for the backlog bound of the access log (strings dominate what is sent)
      const size = message.t === 'access' ? message.lines.reduce((n, l) => n + l.length, 0) : 256;
      try {
        backlog += size;
        proc.send(message, undefined, {}, () => {
          backlog -= size;
        });
        return true;
      } catch {
        backlog -= size;
        return false;
      }
    },
    on(t, handler) {
      handlers.set(t, handler as (message: PrimaryMessage) => void);
    },
    backlog: () => backlog,
  };
}
