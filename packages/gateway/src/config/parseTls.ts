import { resolve } from 'node:path';
import { loadTlsContext, type TlsFieldNames } from '../edge/tls/loadTlsContext.js';
import { ConfigError } from './ConfigError.js';
import type { TlsSettings } from './types.js';

/**
 * Reads the `tls` section (`{ certFile, keyFile }`, both required; absent: plain HTTP) and checks
 * the files at once with {@link loadTlsContext}, so `nodegate config check` and the start refuse a
 * missing, unreadable, unparseable or mismatched certificate or key, naming the field. Paths are
 * resolved against the working directory and kept absolute (a SIGHUP reload reads the same files).
 * `fields` names the two files in errors (the CLI passes its flags).
 *
 * @example
 * parseTls({ certFile: 'cert.pem', keyFile: 'key.pem' }, 'tls') // { certFile: '/srv/cert.pem', keyFile: '/srv/key.pem' }
 */
export function parseTls(raw: unknown, at: string, fields?: TlsFieldNames): TlsSettings | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(at, 'must be an object: { certFile, keyFile } (PEM files)');
  }
  const t = raw as Record<string, unknown>;
  for (const k of Object.keys(t)) {
    if (k !== 'certFile' && k !== 'keyFile')
      throw new ConfigError(`${at}.${k}`, 'unknown field (known: certFile, keyFile)');
  }
  const names = fields ?? { certFile: `${at}.certFile`, keyFile: `${at}.keyFile` };
  const file = (v: unknown, name: string) => {
    if (typeof v !== 'string' || v.length === 0) throw new ConfigError(name, 'must be the path of a PEM file');
    return resolve(v);
  };
  const settings: TlsSettings = { certFile: file(t.certFile, names.certFile), keyFile: file(t.keyFile, names.keyFile) };
  loadTlsContext(settings, names);
  return settings;
}
