import { LOG_LEVELS, type LogFormat, type Logger, type LogLevel } from '../log/createLogger.js';
import type { LogOutput } from '../log/createLogOutput.js';
import { redactFields } from '../log/redactFields.js';
import { redactText } from '../log/redactText.js';
import type { PrimaryLink } from './createPrimaryLink.js';

/** Access log lines are sent to the primary at least this often… */
const ACCESS_FLUSH_MS = 100;
/** …or once this many bytes wait. */
const ACCESS_FLUSH_BYTES = 256 * 1024;
/** Bytes a worker may have handed to the channel unwritten; access lines beyond are dropped. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * A cluster worker's log output: every line is written by the primary process, so one process
 * writes stdout, stderr and the access log file (no two processes' lines interleave, the access
 * log rotates in one place). Log lines go to the primary as they are logged (message and fields
 * redacted here first, so nothing unredacted crosses the channel; the primary adds `worker`);
 * access log lines in batches (every 100 ms or 256 KiB), dropped while 8 MiB wait unwritten
 * (a primary that cannot keep up must not grow the worker without bound). Start and stop
 * events are the primary's.
 *
 * @example
 * const output = createWorkerLogOutput(link, { level: 'warn', format: 'text', accessWhere: '/data/logs/access.log' });
 * await startGateway(config, { output, cluster });
 */
export function createWorkerLogOutput(
  link: PrimaryLink,
  options: { level: LogLevel; format: LogFormat; accessWhere: string | undefined },
): LogOutput & { dropped(): number } {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const at = (level: 'error' | 'warn' | 'info') => {
    const enabled = LOG_LEVELS.indexOf(level) <= threshold;
    return (msg: string, fields?: Record<string, unknown>) => {
      if (!enabled) return;
      link.send({ t: 'log', level, msg: redactText(msg), fields: fields && plain(redactFields(fields)) });
    };
  };
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info') };

  let lines: string[] = [];
  let bytes = 0;
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (lines.length === 0) return;
    const batch = lines;
    lines = [];
    bytes = 0;
    if (!link.send({ t: 'access', lines: batch })) dropped += batch.length;
  };
  const write = (line: string) => {
    if (link.backlog() + bytes > MAX_BACKLOG_BYTES) {
      dropped += 1;
      return;
    }
    lines.push(line);
    bytes += line.length;
    if (bytes >= ACCESS_FLUSH_BYTES) flush();
    else if (timer === undefined) {
      timer = setTimeout(flush, ACCESS_FLUSH_MS);
      timer.unref();
    }
  };

  return {
    format: options.format,
    logger,
    openAccessLog: () => ({ write, where: options.accessWhere ?? 'the primary process' }),
    event: () => {},
    dropped: () => dropped,
    async close() {
      flush();
    },
  };
}

/** Fields as plain data (what the channel can carry): a value it cannot is sent as its text. */
function plain(fields: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(fields, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) as Record<
      string,
      unknown
    >;
  } catch {
    // a cycle: the field names at least
    return { fields: Object.keys(fields).join(', ') };
  }
}
