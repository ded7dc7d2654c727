import { pino } from 'pino';
import { redactFields } from './redactFields.js';
import { redactText } from './redactText.js';

/** Log levels, most severe first. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The gateway's logger: JSON lines on stderr. Keys, secrets and credentials are redacted before writing. */
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * A JSON-lines logger at `level` (pino): one line per call,
 * `{"level":"warn","time":"2026-…Z","msg":"…",…fields}`. The message and every field are
 * redacted first ({@link redactFields}: `/v3/<key>` becomes `/v3/abcd…`, a `key` field its
 * first four characters, secrets and credentials `[redacted]`), so a caller that passes a URL,
 * an error or a key by mistake leaks nothing. Disabled levels cost a comparison. Per-request
 * lines are the access log's ({@link createAccessLogRecorder}), not this logger's.
 *
 * @example
 * const log = createLogger('warn');
 * log.error('request failed', { code: 'FST_ERR_X', path: '/eth-devnet/v3/3111a397c829818d6c438b39442ca3d0' });
 * // {"level":"error","time":"…","msg":"request failed","code":"FST_ERR_X","path":"/eth-devnet/v3/3111…"}
 */
export function createLogger(
  level: LogLevel = 'warn',
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const p = pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write },
  );
  const at = (name: 'error' | 'warn' | 'info') => {
    return (msg: string, fields?: Record<string, unknown>) => {
      if (!p.isLevelEnabled(name)) return;
      if (fields === undefined) p[name](redactText(msg));
      else p[name](redactFields(fields), redactText(msg));
    };
  };
  return { error: at('error'), warn: at('warn'), info: at('info') };
}
