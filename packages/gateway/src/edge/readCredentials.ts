/** The credentials of an `Authorization` header: HTTP basic (user and secret) or a Bearer token. */
export interface AuthorizationCredentials {
  /** Basic user name (the API key for IPFS; empty for `curl --user :SECRET`). */
  readonly user: string | undefined;
  readonly secret: string | undefined;
  readonly bearer: string | undefined;
  /** The header was present but is neither well-formed Basic nor Bearer. */
  readonly malformed: boolean;
}

const NONE: AuthorizationCredentials = { user: undefined, secret: undefined, bearer: undefined, malformed: false };
const MALFORMED: AuthorizationCredentials = { ...NONE, malformed: true };

/**
 * Parses an `Authorization` header: `Basic base64(user:secret)` or `Bearer <token>`.
 *
 * @example
 * readCredentials('Basic OnMzY3JldA==') // { user: '', secret: 's3cret', bearer: undefined, malformed: false }
 */
export function readCredentials(header: string | undefined): AuthorizationCredentials {
  if (header === undefined || header === '') return NONE;
  const space = header.indexOf(' ');
  if (space < 0) return MALFORMED;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'bearer') return value === '' ? MALFORMED : { ...NONE, bearer: value };
  if (scheme !== 'basic' || !/^[A-Za-z0-9+/=_-]+$/.test(value)) return MALFORMED;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return MALFORMED;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1), bearer: undefined, malformed: false };
}
