import { GatewayError } from '../errors/GatewayError.js';
import type { Credentials } from '../pipeline/RequestContext.js';
import { readCredentials } from './readCredentials.js';

/**
 * The credentials of a JSON-RPC request (HTTP or WebSocket upgrade): the key from its path, and
 * from `Authorization` the key's secret (`Basic base64(:SECRET)` or `base64(KEY:SECRET)`) or a
 * Bearer JWT. Throws 401 for a malformed header or a basic user that is not the path's key.
 *
 * @example
 * credentialsOf('3111…', req.headers.authorization)
 */
export function credentialsOf(pathKey: string, authorization: string | undefined): Credentials {
  const auth = readCredentials(authorization);
  if (auth.malformed) {
    throw new GatewayError('UNAUTHORIZED', 'malformed Authorization header: use Basic base64(:SECRET) or Bearer <JWT>');
  }
  if (auth.user !== undefined && auth.user !== '' && auth.user !== pathKey) {
    throw new GatewayError('UNAUTHORIZED', 'the basic auth user must be empty or the API key of the path');
  }
  return { key: pathKey, secret: auth.secret, bearer: auth.bearer };
}
