import type { KeyAuthenticator } from '../../keys/createKeyAuthenticator.js';
import type { RequestContext } from '../RequestContext.js';
import { admitKey } from './admitKey.js';

/**
 * Stage "authenticate": finds the key (path segment, or HTTP basic user for IPFS), then checks
 * the credentials its settings require ({@link admitKey}: the API key secret when needed, a
 * Bearer JWT when required or sent). Sets `ctx.key`; throws a 401 GatewayError that never says
 * which of key, secret or token was wrong beyond what the client must fix.
 *
 * @example
 * await authenticate(ctx, keys); // ctx.key is now the TenantKey
 */
export async function authenticate(ctx: RequestContext, keys: KeyAuthenticator): Promise<void> {
  const verifying = admitKey(ctx, await keys.authenticate(ctx.credentials.key));
  if (verifying !== undefined) await verifying;
}
