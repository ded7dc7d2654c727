import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import { secretMatches } from '../keys/secrets.js';
import type { ApiKeyRecord } from '../store/KeyStore.js';

/** The outcome of checking HTTP basic credentials. */
export type BasicAuthResult =
  | { readonly ok: true; readonly record: ApiKeyRecord }
  | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

/** A fixed hash compared against when the key is unknown, so both paths cost the same. */
const NO_SECRET_HASH = '0'.repeat(64);

/**
 * Checks an `Authorization: Basic base64(<API_KEY>:<API_KEY_SECRET>)` header: the key must be
 * active (not revoked) and the secret must match its stored hash (constant-time comparison).
 * Unknown key, revoked key and wrong secret all give `invalid`, so callers cannot tell them apart.
 *
 * @example
 * const r = await authenticateBasic(req.headers.authorization, keys);
 * if (!r.ok) return unauthorized();
 */
export async function authenticateBasic(header: string | undefined, keys: KeyAuthenticator): Promise<BasicAuthResult> {
  if (header === undefined) return { ok: false, reason: 'missing' };
  const m = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return { ok: false, reason: 'invalid' };
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'invalid' };
  const key = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const record = (await keys.authenticate(key))?.record;
  const matches = secretMatches(secret, record?.secretHash ?? NO_SECRET_HASH);
  return record && matches ? { ok: true, record } : { ok: false, reason: 'invalid' };
}
