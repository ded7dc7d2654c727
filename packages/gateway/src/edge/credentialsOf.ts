import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';
import type { Credentials } from '../pipeline/RequestContext.js';
import { readAuthorizationHeaders } from './readAuthorizationHeaders.js';

/**
 * The credentials of a JSON-RPC request (HTTP or WebSocket upgrade): the key from its path, and
 * from the headers the key's secret (`Authorization: Basic base64(:SECRET)` or `base64(KEY:SECRET)`)
 * and a JWT (`Authorization: Bearer <JWT>`); a key that needs both sends the second in
 * `X-Nodegate-JWT` or `X-Nodegate-Authorization` (see readAuthorizationHeaders). Throws 401 for
 * malformed headers or a basic user that is not the path's key.
 *
 * @example
 * credentialsOf('3111…', req.headers)
 */
export function credentialsOf(pathKey: string, headers: IncomingHttpHeaders): Credentials {
  const auth = readAuthorizationHeaders(headers);
  if ('problem' in auth) throw new GatewayError('UNAUTHORIZED', auth.problem);
  if (auth.user !== undefined && auth.user !== '' && auth.user !== pathKey) {
    throw new GatewayError('UNAUTHORIZED', 'the basic auth user must be empty or the API key of the path');
  }
  return { key: pathKey, secret: auth.secret, bearer: auth.bearer };
}
