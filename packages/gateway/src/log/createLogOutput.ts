import { isAbsolute, join, resolve } from 'node:path';
import { pino } from 'pino';
import type { LogSettings } from '../config/types.js';
import { createLogger, type LogFormat, type Logger, type LogLevel } from './createLogger.js';
import { openRotatingFile } from './openRotatingFile.js';
import { redactFields } from './redactFields.js';
import { redactText } from './redactText.js';

/** Where the access log goes by default with the `text` format: below the data directory. */
export const DEFAULT_ACCESS_FILE = join('logs', 'access.log');
/** What a JSON stdout may hold in memory while its reader is slow; lines beyond it are dropped. */
const MAX_STDOUT_BUFFER = 16 * 1024 * 1024;

/** Where a gateway's log lines go, as `log.format` and `log.accessFile` say. */
export interface LogOutput {
  readonly format: LogFormat;
  /** Warnings and errors (and info with `--log-level info`). */
  readonly logger: Logger;
  /**
   * Opens the access log (once the data directory is ready): a file below `dataDir`
   * (`log.accessFile`, default `logs/access.log`, rotated), or stdout with the `json` format
   * and no `accessFile`. `where` says which, for the startup summary.
   */
  openAccessLog(dataDir: string): { write: (line: string) => void; where: string };
  /** A line of the start-and-stop story in the `json` format, whatever the level (`info`); nothing in `text`. */
  event(msg: string, fields?: Record<string, unknown>): void;
  /** Writes what is buffered and closes the files. */
  close(): Promise<void>;
}

/**
 * The gateway's log output. `text` (the default): warnings and errors one human line each on
 * stderr (`12:00:01 warn  …`), the access log's JSON lines in a file below the data directory,
 * kept under `accessFileMaxBytes` × (`accessFileKeep` + 1), so a terminal running `npm start`
 * shows only what needs a person. `json`: every line is a JSON object on stdout (the log, the
 * access log unless `accessFile` names a file, the start and stop events), as a log collector
 * wants; one asynchronous writer serves them all, so lines never interleave, and what it holds
 * when the process exits is written then.
 *
 * @example
 * const output = createLogOutput(config.log, { level: 'info' });
 * output.logger.warn('upstream slow', { upstream: 'anvil' });
 * const access = output.openAccessLog(dataDir); // { write, where: '/…/logs/access.log (…)' }
 */
export function createLogOutput(
  settings: LogSettings,
  options: { level?: LogLevel | undefined; format?: LogFormat | undefined } = {},
): LogOutput {
  const format = options.format ?? settings.format;
  const level = options.level ?? settings.level;
  const closers: Array<() => Promise<void>> = [];

  let stdout: ReturnType<typeof pino.destination> | undefined;
  let flushAtExit: (() => void) | undefined;
  let stdoutClosed = false;
  if (format === 'json') {
    const dest = pino.destination({ dest: 1, sync: false, maxLength: MAX_STDOUT_BUFFER });
    dest.on('error', () => {}); // a closed stdout (the reader went away) must not crash the gateway
    stdout = dest;
    flushAtExit = () => {
      try {
        dest.flushSync();
      } catch {
        // not open yet, or already closed
      }
    };
    process.once('exit', flushAtExit);
    closers.push(
      () =>
        new Promise<void>((done) => {
          process.off('exit', flushAtExit!);
          if (stdoutClosed) return done();
          stdoutClosed = true;
          dest.once('close', () => done());
          dest.once('error', () => done());
          try {
            dest.end();
          } catch {
            done();
          }
        }),
    );
  }
  const toStdout = (line: string) => {
    if (stdout && !stdoutClosed) stdout.write(line);
  };
  const logger = stdout ? createLogger(level, toStdout, 'json') : createLogger(level, undefined, 'text');

  return {
    format,
    logger,
    openAccessLog(dataDir) {
      if (!settings.accessFile && stdout) return { write: toStdout, where: 'stdout (JSON lines)' };
      const file = settings.accessFile ?? DEFAULT_ACCESS_FILE;
      const path = isAbsolute(file) ? file : resolve(dataDir, file);
      const rotating = openRotatingFile(path, {
        maxBytes: settings.accessFileMaxBytes,
        keep: settings.accessFileKeep,
        onError: (err) => logger.error('the access log cannot be written', { file: path, error: err }),
      });
      closers.unshift(() => rotating.close());
      const mib = (settings.accessFileMaxBytes / 1048576).toFixed(settings.accessFileMaxBytes % 1048576 ? 1 : 0);
      return {
        write: (line) => rotating.write(line),
        where: `${path} (JSON lines; a new file past ${mib} MiB, ${settings.accessFileKeep} old ones kept)`,
      };
    },
    event(msg, fields = {}) {
      if (!stdout) return;
      const line = { level: 'info', time: new Date().toISOString(), msg: redactText(msg), ...redactFields(fields) };
      toStdout(`${JSON.stringify(line)}\n`);
    },
    async close() {
      for (const c of closers.splice(0)) await c().catch(() => {});
    },
  };
}
