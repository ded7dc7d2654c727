import { LOG_LEVELS, type LogLevel } from '../log/createLogger.js';
import { ConfigError } from './ConfigError.js';
import type { LogSettings, MetricsSettings } from './types.js';

/**
 * Parses the `log` and `metrics` sections (both optional) and fills in their defaults:
 * `log: { level: warn, access: false }`; `metrics: { enabled: true, auth: admin-token }` on the
 * main listener, or `auth: none` when `metrics.listen` gives it a listener of its own.
 * `parseListen` is the config's HOST:PORT parser.
 *
 * @example
 * parseObservability({ log: { access: true }, metrics: { listen: '127.0.0.1:9464' } }, parseListen)
 * // { log: { level: 'warn', access: true }, metrics: { enabled: true, auth: 'none', listen: { host: '127.0.0.1', port: 9464 } } }
 */
export function parseObservability(
  root: Readonly<Record<string, unknown>>,
  parseListen: (raw: unknown, at: string) => { host: string; port: number },
): { log: LogSettings; metrics: MetricsSettings } {
  const log = section(root.log, 'log', ['level', 'access']);
  const level = log.level === undefined ? 'warn' : oneOf<LogLevel>(log.level, 'log.level', LOG_LEVELS);
  const access = log.access === undefined ? false : bool(log.access, 'log.access');
  const m = section(root.metrics, 'metrics', ['enabled', 'auth', 'listen']);
  const enabled = m.enabled === undefined ? true : bool(m.enabled, 'metrics.enabled');
  const listen = m.listen === undefined ? undefined : parseListen(m.listen, 'metrics.listen');
  const auth =
    m.auth === undefined
      ? listen
        ? 'none'
        : 'admin-token'
      : oneOf<'admin-token' | 'none'>(m.auth, 'metrics.auth', ['admin-token', 'none']);
  return { log: { level, access }, metrics: { enabled, auth, listen } };
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

function oneOf<T extends string>(v: unknown, at: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new ConfigError(at, `must be one of ${values.join(', ')}`);
  }
  return v as T;
}
