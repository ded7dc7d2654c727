import type { IncomingHttpHeaders } from 'node:http';
import { readCredentials } from './readCredentials.js';

/** What a request's authorization headers carry: HTTP basic credentials and a JWT, each optional. */
export interface AuthorizationHeaders {
  /** Basic user (the API key for IPFS; empty or the path's key for JSON-RPC), when basic credentials came. */
  readonly user: string | undefined;
  /** The API key secret, when basic credentials came. */
  readonly secret: string | undefined;
  /** The JWT, from `Authorization: Bearer` or `X-Nodegate-JWT`. */
  readonly bearer: string | undefined;
}

/**
 * Reads the credentials of a request from its headers, the same way on every transport. A key
 * that needs both its secret and a JWT sends them in one of two ways (one `Authorization`
 * header cannot carry both):
 * - `Authorization: Basic base64(USER:SECRET)` and `X-Nodegate-JWT: <token>`, or
 * - `Authorization: Bearer <token>` and `X-Nodegate-Authorization: Basic base64(USER:SECRET)`.
 * Returns the reason (for a 401) when the headers are malformed, repeated, or carry the JWT twice.
 *
 * @example
 * readAuthorizationHeaders({ authorization: 'Basic OnMzY3JldA==', 'x-nodegate-jwt': 'eyJ…' })
 * // { user: '', secret: 's3cret', bearer: 'eyJ…' }
 */
export function readAuthorizationHeaders(
  headers: IncomingHttpHeaders,
): AuthorizationHeaders | { readonly problem: string } {
  const auth = readCredentials(headers.authorization);
  if (auth.malformed) return { problem: 'malformed Authorization header: use Basic base64(:SECRET) or Bearer <JWT>' };
  const jwtHeader = headers['x-nodegate-jwt'];
  const basicHeader = headers['x-nodegate-authorization'];
  if (Array.isArray(jwtHeader) || Array.isArray(basicHeader)) {
    return { problem: 'send X-Nodegate-JWT and X-Nodegate-Authorization at most once each' };
  }
  const jwt = jwtHeader?.trim();
  if (jwt === '') return { problem: 'X-Nodegate-JWT is empty' };
  if (auth.bearer === undefined) {
    if (basicHeader !== undefined) {
      return {
        problem:
          'X-Nodegate-Authorization goes with Authorization: Bearer <JWT>; otherwise send the secret in Authorization',
      };
    }
    return { user: auth.user, secret: auth.secret, bearer: jwt };
  }
  if (jwt !== undefined) return { problem: 'send the JWT once: Authorization: Bearer or X-Nodegate-JWT, not both' };
  if (basicHeader === undefined) return { user: undefined, secret: undefined, bearer: auth.bearer };
  const basic = readCredentials(basicHeader);
  if (basic.malformed || basic.user === undefined) {
    return { problem: 'malformed X-Nodegate-Authorization header: use Basic base64(USER:SECRET)' };
  }
  return { user: basic.user, secret: basic.secret, bearer: auth.bearer };
}
