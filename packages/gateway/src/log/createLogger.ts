import { pino } from 'pino';
import { formatLogLine } from './formatLogLine.js';
import { redactFields } from './redactFields.js';
import { redactText } from './redactText.js';

/** Log levels, most severe first. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How log lines are written: `text`, one line a person reads; `json`, one JSON object a machine reads. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The gateway's logger. Keys, secrets and credentials are redacted before writing. */
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * A logger at `level`, one line per call to `write` (stderr by default): in the `json` format
 * (pino) `{"level":"warn","time":"2026-…Z","msg":"…",…fields}`; in the `text` format
 * `12:00:01 warn  msg name=value …` ({@link formatLogLine}). The message and every field are
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
  format: LogFormat = 'json',
): Logger {
  if (format === 'text') {
    const threshold = LOG_LEVELS.indexOf(level);
    const at = (name: 'error' | 'warn' | 'info') => {
      const enabled = LOG_LEVELS.indexOf(name) <= threshold;
      return (msg: string, fields?: Record<string, unknown>) => {
        if (enabled) write(formatLogLine(name, redactText(msg), fields && redactFields(fields)));
      };
    };
    return { error: at('error'), warn: at('warn'), info: at('info') };
  }
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
