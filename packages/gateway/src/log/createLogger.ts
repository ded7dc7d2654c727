/** Log levels, most severe first. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The gateway's logger: JSON lines on stderr. Callers never pass keys, secrets or upstream URLs. */
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * A JSON-lines logger at `level`. Per-request logging is deliberately absent from the hot
 * path (it cost about 7% of throughput); errors and lifecycle events are logged.
 *
 * @example
 * const log = createLogger('warn');
 * log.error('request failed', { code: 'FST_ERR_X' });
 */
export function createLogger(
  level: LogLevel = 'warn',
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const max = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'silent'>) => {
    const enabled = LOG_LEVELS.indexOf(name) <= max;
    return (msg: string, fields?: Record<string, unknown>) => {
      if (enabled) write(`${JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...fields })}\n`);
    };
  };
  return { error: at('error'), warn: at('warn'), info: at('info') };
}
