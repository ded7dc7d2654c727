// A key or secret: 32 hex characters on their own (not part of a longer hex string such as a hash).
const HEX_TOKEN = /(?<![0-9a-fA-F])([0-9a-fA-F]{4})[0-9a-fA-F]{28}(?![0-9a-fA-F])/g;
// The key segment of `/v3/<key>` and `/ws/v3/<key>`, whatever its form.
const PATH_KEY = /(\/v3\/)([^/?#\s"'<>]{4})[^/?#\s"'<>]*/g;
// Credentials in an Authorization header value.
const AUTH_SCHEME = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]+/gi;
// user:password@ in a URL.
const USERINFO = /(\/\/)[^/@\s"']+@/g;
// key=…, token=…, secret=… in a query string or form.
const QUERY_SECRET = /([?&;](?:api[_-]?key|key|token|secret|password)=)[^&\s"'#]*/gi;

/**
 * Removes API keys, secrets and credentials from a text that is about to be logged: the key
 * segment of `/v3/<key>` keeps its first four characters (`/v3/abcd…`), as does any bare
 * 32-hex token (a key id or secret); `Basic …`/`Bearer …` credentials, URL user info and
 * `key=`/`token=`/`secret=` query values are replaced. Longer hex strings (hashes) are kept.
 *
 * @example
 * redactText('GET /eth-devnet/v3/3111a397c829818d6c438b39442ca3d0 failed') // 'GET /eth-devnet/v3/3111… failed'
 */
export function redactText(text: string): string {
  return text
    .replace(PATH_KEY, '$1$2…')
    .replace(AUTH_SCHEME, '$1 [redacted]')
    .replace(USERINFO, '$1[redacted]@')
    .replace(QUERY_SECRET, '$1[redacted]')
    .replace(HEX_TOKEN, '$1…');
}
