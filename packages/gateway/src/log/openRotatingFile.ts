import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pino } from 'pino';

/** A file written line by line, asynchronously, bounded in size and in memory. */
export interface RotatingFile {
  /** The file's path. */
  readonly path: string;
  /** Appends a line (with its newline); never throws, never blocks on the disk. */
  write(line: string): void;
  /** Lines dropped because the disk did not keep up (the buffer was full) or the file could not be written. */
  dropped(): number;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/** How much a writer may hold in memory while the disk is slow; lines beyond it are dropped and counted. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * Opens `path` for appending lines (its directory is made 0700, the file 0600) and keeps it
 * bounded: once a line would take it past `maxBytes`, the file becomes `path.1` (the older
 * ones `path.2` … `path.<keep>`, the oldest removed) and a new one starts, so the files never
 * hold much more than `(keep + 1) × maxBytes`. Writes are asynchronous (pino's SonicBoom): a
 * request never waits for the disk; at most 4 MiB waits in memory, lines beyond it are dropped
 * and counted (`dropped()`). A write error (disk full, file removed with its directory…) is
 * reported once to `onError` and never thrown; the lines after it are dropped and counted. Only a
 * regular file is counted and rotated: a directory at `path` is reported (its open fails), never
 * moved aside.
 *
 * @example
 * const file = openRotatingFile('/var/lib/nodegate/logs/access.log', { maxBytes: 10 * 1024 * 1024, keep: 2 });
 * file.write('{"msg":"request"}\n');
 * await file.close();
 */
export function openRotatingFile(
  path: string,
  options: { maxBytes: number; keep: number; onError?: (err: Error) => void },
): RotatingFile {
  const { maxBytes, keep } = options;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // what a regular file already holds counts toward maxBytes; anything else at the path (a
  // directory…) is never rotated away: its open fails, and that is reported
  const found = statSync(path, { throwIfNoEntry: false });
  let size = found?.isFile() ? found.size : 0;
  let dropped = 0;
  let reported = false;
  let closed = false;
  const dest = pino.destination({ dest: path, sync: false, mode: 0o600, maxLength: MAX_BUFFERED_BYTES });
  dest.on('error', (err: Error) => {
    // nothing more reaches a failed file, so nothing is left to flush when the process exits
    // (pino flushes its destinations then: one that never opened would throw "not ready")
    dest.flushSync = () => undefined;
    if (reported) return;
    reported = true;
    options.onError?.(err);
  });
  dest.on('drop', () => {
    dropped += 1;
  });

  const rotate = () => {
    try {
      rmSync(`${path}.${keep}`, { force: true });
      for (let i = keep - 1; i >= 1; i--) {
        try {
          renameSync(`${path}.${i}`, `${path}.${i + 1}`);
        } catch {
          // that generation does not exist (yet)
        }
      }
      if (keep >= 1) renameSync(path, `${path}.1`);
      else rmSync(path, { force: true });
    } catch {
      // the file went away (removed by hand, or not written yet): a new one starts all the same
    }
    // lines still buffered land in the new file; those being written finish in the old one
    dest.reopen();
    size = 0;
  };

  return {
    path,
    write(line) {
      // closed, or failed (reported once): nothing more reaches the file, not even a rotation
      if (closed || reported) {
        dropped += 1;
        return;
      }
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      size += bytes;
      dest.write(line);
    },
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        if (reported) {
          // it failed (never opened, or a write failed): nothing more will reach it
          try {
            dest.destroy();
          } catch {}
          return resolve();
        }
        dest.once('close', () => resolve());
        dest.once('error', () => resolve());
        try {
          dest.end();
        } catch {
          resolve();
        }
      }),
  };
}
