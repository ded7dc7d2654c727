import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../log/createLogger.js';
import { ConfigError } from './ConfigError.js';
import type { LogSettings, MetricsSettings } from './types.js';

/**
 * Parses the `log` and `metrics` sections (both optional) and fills in their defaults:
 * `log: { level: warn, format: text, access: false, accessFileMaxBytes: 10 MiB, accessFileKeep: 2 }`; `metrics: { enabled: true, auth: admin-token }` on the
 * main listener, or `auth: none` when `metrics.listen` gives it a listener of its own.
 * `parseListen` is the config's HOST:PORT parser.
 *
 * @example
 * parseObservability({ log: { access: true }, metrics: { listen: '127.0.0.1:9464' } }, parseListen)
 * // { log: { level: 'warn', format: 'text', access: true, …the access file's }, metrics: { enabled: true, auth: 'none', listen: { host: '127.0.0.1', port: 9464 } } }
 */
export function parseObservability(
  root: Readonly<Record<string, unknown>>,
  parseListen: (raw: unknown, at: string) => { host: string; port: number },
): { log: LogSettings; metrics: MetricsSettings } {
  const log = section(root.log, 'log', [
    'level',
    'format',
    'access',
    'accessFile',
    'accessFileMaxBytes',
    'accessFileKeep',
  ]);
  const level = log.level === undefined ? 'warn' : oneOf<LogLevel>(log.level, 'log.level', LOG_LEVELS);
  const format = log.format === undefined ? 'text' : oneOf<LogFormat>(log.format, 'log.format', LOG_FORMATS);
  const access = log.access === undefined ? false : bool(log.access, 'log.access');
  if (log.accessFile !== undefined && (typeof log.accessFile !== 'string' || log.accessFile.trim() === '')) {
    throw new ConfigError('log.accessFile', 'must be a file path (relative to dataDir, or absolute)');
  }
  const accessFile = log.accessFile as string | undefined;
  const accessFileMaxBytes =
    log.accessFileMaxBytes === undefined
      ? 10 * 1024 * 1024
      : integer(log.accessFileMaxBytes, 'log.accessFileMaxBytes', 65_536, 'at least 65536 (64 KiB)');
  const accessFileKeep =
    log.accessFileKeep === undefined ? 2 : integer(log.accessFileKeep, 'log.accessFileKeep', 0, '0 or more');
  const m = section(root.metrics, 'metrics', ['enabled', 'auth', 'listen']);
  const enabled = m.enabled === undefined ? true : bool(m.enabled, 'metrics.enabled');
  const listen = m.listen === undefined ? undefined : parseListen(m.listen, 'metrics.listen');
  const auth =
    m.auth === undefined
      ? listen
        ? 'none'
        : 'admin-token'
      : oneOf<'admin-token' | 'none'>(m.auth, 'metrics.auth', ['admin-token', 'none']);
  return {
    log: { level, format, access, accessFile, accessFileMaxBytes, accessFileKeep },
    metrics: { enabled, auth, listen },
  };
}

function section(v: unknown, at: string, keys: readonly string[]): Record<string, unknown> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(at, 'must be an object');
  for (const k of Object.keys(v)) {
    if (!keys.includes(k)) throw new ConfigError(`${at}.${k}`, `unknown field (known: ${keys.join(', ')})`);
  }
  return v as Record<string, unknown>;
}

function bool(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') throw new ConfigError(at, 'must be true or false');
  return v;
}

function integer(v: unknown, at: string, min: number, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new ConfigError(at, `must be a whole number, ${what}`);
  return v;
}

function oneOf<T extends string>(v: unknown, at: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new ConfigError(at, `must be one of ${values.join(', ')}`);
  }
  return v as T;
}
