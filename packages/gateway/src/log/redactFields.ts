import { redactText } from './redactText.js';

/** Fields that hold an API key id: logged as its first four characters (`abcd…`). */
const KEY_FIELDS = new Set(['key', 'apikey', 'api_key', 'keyid', 'key_id']);
/** Fields whose value is never logged. */
const SECRET_FIELDS = new Set([
  'secret',
  'password',
  'token',
  'admintoken',
  'signintoken',
  'authorization',
  'cookie',
  'set-cookie',
  'bearer',
  'jwt',
]);
const MAX_DEPTH = 4;

/**
 * A copy of log fields that is safe to write: key fields (`key`, `apiKey`) shortened to
 * `abcd…`, secret fields (`secret`, `token`, `authorization`, …) replaced, every string passed
 * through {@link redactText}, errors reduced to their name, code, message, stack and cause
 * (redacted too). Nested objects are followed four levels deep.
 *
 * @example
 * redactFields({ key: '3111a397c829818d6c438b39442ca3d0', error: new Error('bad /v3/3111a397c829818d6c438b39442ca3d0') })
 * // { key: '3111…', error: { name: 'Error', message: 'bad /v3/3111…', stack: '…' } }
 */
export function redactFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return redactObject(fields, 0);
}

function redactObject(o: Readonly<Record<string, unknown>>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(o)) {
    const lower = name.toLowerCase();
    if (SECRET_FIELDS.has(lower)) out[name] = '[redacted]';
    else if (KEY_FIELDS.has(lower) && typeof value === 'string') out[name] = `${value.slice(0, 4)}…`;
    else out[name] = redactValue(value, depth + 1);
  }
  return out;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[nested]';
  if (value instanceof Error) return redactError(value, depth);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof URL) return redactText(value.href);
  return redactObject(value as Record<string, unknown>, depth);
}

function redactError(err: Error, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: redactText(err.message) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.stack) out.stack = redactText(err.stack);
  if (err.cause !== undefined) out.cause = redactValue(err.cause, depth + 1);
  return out;
}
