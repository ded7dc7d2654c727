import { GatewayError } from '../errors/GatewayError.js';

/** A request target split into its decoded path and its raw query (with the `?`, or empty). */
export interface RequestPath {
  readonly path: string;
  readonly query: string;
}

const SUSPICIOUS = /%(?:2[ef]|5c)|\\|\/\.{1,2}(?:\/|$)|\/\//i;

/**
 * Reads a request target the one way every later step will: percent-decoded, and refused when
 * it would normalise differently from how it reads (`.`/`..` segments, empty segments, encoded
 * `/`, `.` or `\`, backslashes, invalid percent-encoding). Routing and the checks after it then
 * decide on exactly the path that is forwarded. Throws a 400 GatewayError that never echoes
 * the path (it may hold an API key).
 *
 * @example
 * normalizeRequestPath('/eth-devnet/v3/abc?x=1') // { path: '/eth-devnet/v3/abc', query: '?x=1' }
 * normalizeRequestPath('/ipfs/api/v0/version/../block/rm') // throws: 400
 */
export function normalizeRequestPath(rawUrl: string): RequestPath {
  const q = rawUrl.indexOf('?');
  const raw = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = q === -1 ? '' : rawUrl.slice(q);
  if (raw.charCodeAt(0) !== 47 /* / */) {
    throw new GatewayError('INVALID_REQUEST', 'bad request: the request target must be an absolute path', {
      httpStatus: 400,
    });
  }
  if (SUSPICIOUS.test(raw)) {
    throw new GatewayError(
      'INVALID_REQUEST',
      'bad request: send a normalised path (no "." or ".." segments, empty segments, backslashes or encoded "/", "." or "\\")',
      { httpStatus: 400 },
    );
  }
  if (raw.indexOf('%') === -1) return { path: raw, query };
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw new GatewayError('INVALID_REQUEST', 'bad request: the path is not valid percent-encoding', {
      httpStatus: 400,
    });
  }
  return { path, query };
}
