import { createPublicKey } from 'node:crypto';
import { type JwtPublicKey, type KeySettings, MAX_ALLOWLIST_ENTRIES, MAX_JWT_KEYS } from '../keys/KeySettings.js';

/** A settings problem, naming the field (`settings.allowedOrigins[2]`). Never echoes a PEM. */
export interface SettingsProblem {
  readonly field: string;
  readonly message: string;
}

/** Valid settings (normalised), or the first problem found. */
export type SettingsCheck =
  | { readonly ok: true; readonly settings: Partial<KeySettings> }
  | { readonly ok: false; readonly problem: SettingsProblem };

const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = `(?:\\*\\.)?${HOST_LABEL}(?:\\.${HOST_LABEL})*`;
const ORIGIN = new RegExp(`^(?:https?://)?${HOST}(?::\\d{1,5})?$`);
const CONTRACT = /^0x[0-9a-f]{1,64}$/;
const METHOD = /^[a-zA-Z0-9_/]{1,128}$/;
const JWT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const LISTS = ['allowedOrigins', 'allowedUserAgents', 'allowedContracts', 'allowedMethods'] as const;
const KNOWN = new Set<string>([
  ...LISTS,
  'requireSecret',
  'jwtKeys',
  'requireJwt',
  'creditsPerSecond',
  'creditsPerDay',
  'enableFailover',
]);

class Problem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

function checkEntry(list: (typeof LISTS)[number], value: unknown, field: string): string {
  if (typeof value !== 'string') throw new Problem(field, 'expected a string');
  switch (list) {
    case 'allowedOrigins': {
      const v = value.trim().toLowerCase();
      const port = /:(\d+)$/.exec(v)?.[1];
      if (!ORIGIN.test(v) || (port !== undefined && Number(port) > 65_535)) {
        throw new Problem(field, 'expected an origin like https://app.example.com or *.example.com');
      }
      return v;
    }
    case 'allowedUserAgents':
      if (value.length === 0 || value.length > 256) throw new Problem(field, 'expected 1 to 256 characters');
      return value;
    case 'allowedContracts': {
      const v = value.trim().toLowerCase();
      if (!CONTRACT.test(v)) throw new Problem(field, 'expected a contract address: 0x and 1 to 64 hex digits');
      return v;
    }
    case 'allowedMethods':
      if (!METHOD.test(value)) throw new Problem(field, 'expected a method name (letters, digits, _ and /)');
      return value;
  }
}

function checkJwtKey(value: unknown, field: string): JwtPublicKey {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Problem(field, 'expected { name, pem }');
  }
  const { name, pem, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new Problem(`${field}.${extra}`, 'unknown field');
  if (typeof name !== 'string' || !JWT_NAME.test(name)) {
    throw new Problem(`${field}.name`, 'expected 1 to 64 letters, digits, _, . or -');
  }
  if (typeof pem !== 'string' || pem.length > 16_384) throw new Problem(`${field}.pem`, 'expected a PEM public key');
  if (/PRIVATE KEY/.test(pem)) throw new Problem(`${field}.pem`, 'expected a public key, not a private key');
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new Problem(`${field}.pem`, 'not a PEM public key that can be parsed');
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    if ((details.modulusLength ?? 0) < 2048) throw new Problem(`${field}.pem`, 'RSA keys need at least 2048 bits');
  } else if (key.asymmetricKeyType !== 'ec' || details.namedCurve !== 'prime256v1') {
    throw new Problem(`${field}.pem`, 'expected an RSA (RS256) or EC P-256 (ES256) public key');
  }
  return { name, pem: key.export({ type: 'spki', format: 'pem' }).toString() };
}

function checkCredits(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new Problem(field, 'expected null or a whole number of at least 1');
  }
  return value;
}

function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new Problem(field, 'expected true or false');
  return value;
}

/**
 * Checks (part of) a key's settings and normalises them: origins and contracts lowercase,
 * JWT keys re-encoded as SPKI PEM. Limits: {@link MAX_ALLOWLIST_ENTRIES} entries per
 * allowlist, {@link MAX_JWT_KEYS} JWT keys with unique names, RSA ≥ 2048 bits or EC P-256.
 * With `current`, the result is the whole merged settings and is checked as a whole too
 * (`requireJwt` needs a JWT key). Field names start with `prefix` (default `settings`).
 *
 * @example
 * const check = validateKeySettings({ allowedOrigins: ['https://App.example.com'] });
 * // { ok: true, settings: { allowedOrigins: ['https://app.example.com'] } }
 * validateKeySettings({ creditsPerDay: 0 });
 * // { ok: false, problem: { field: 'settings.creditsPerDay', message: 'settings.creditsPerDay: expected …' } }
 */
export function validateKeySettings(input: unknown, current?: KeySettings, prefix = 'settings'): SettingsCheck {
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new Problem(prefix, 'expected an object');
    }
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      const field = `${prefix}.${name}`;
      if (!KNOWN.has(name)) throw new Problem(field, 'unknown setting');
      if ((LISTS as readonly string[]).includes(name)) {
        if (!Array.isArray(value)) throw new Problem(field, 'expected a list');
        if (value.length > MAX_ALLOWLIST_ENTRIES) {
          throw new Problem(field, `at most ${MAX_ALLOWLIST_ENTRIES} entries`);
        }
        out[name] = value.map((v, i) => checkEntry(name as (typeof LISTS)[number], v, `${field}[${i}]`));
      } else if (name === 'jwtKeys') {
        if (!Array.isArray(value)) throw new Problem(field, 'expected a list');
        if (value.length > MAX_JWT_KEYS) throw new Problem(field, `at most ${MAX_JWT_KEYS} JWT keys`);
        const keys = value.map((v, i) => checkJwtKey(v, `${field}[${i}]`));
        keys.forEach((k, i) => {
          if (keys.findIndex((o) => o.name === k.name) !== i) {
            throw new Problem(`${field}[${i}].name`, `the name "${k.name}" is used twice`);
          }
        });
        out[name] = keys;
      } else if (name === 'requireSecret' || name === 'requireJwt' || name === 'enableFailover') {
        out[name] = checkBoolean(value, field);
      } else {
        out[name] = checkCredits(value, field);
      }
    }
    if (current === undefined) return { ok: true, settings: out as Partial<KeySettings> };
    const merged = { ...current, ...out } as KeySettings;
    if (merged.requireJwt && merged.jwtKeys.length === 0) {
      throw new Problem(`${prefix}.requireJwt`, 'requires at least one JWT key in jwtKeys');
    }
    return { ok: true, settings: merged };
  } catch (err) {
    if (err instanceof Problem) return { ok: false, problem: { field: err.field, message: err.message } };
    throw err;
  }
}
