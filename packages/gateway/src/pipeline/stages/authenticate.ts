import { GatewayError } from '../../errors/GatewayError.js';
import type { KeyAuthenticator } from '../../keys/createKeyAuthenticator.js';
import { verifyBearer } from '../../keys/restrictions/verifyBearer.js';
import { secretMatches } from '../../keys/secrets.js';
import type { RequestContext } from '../RequestContext.js';

/** A hash compared against when the key is unknown, so both paths cost the same. */
const NO_SECRET_HASH = '0'.repeat(64);

/**
 * Stage "authenticate": finds the key (path segment, or HTTP basic user for IPFS), then checks
 * the credentials its settings require: the API key secret (always for IPFS, whose interface
 * sends `KEY:SECRET`; when `requireSecret` or a secret is sent for JSON-RPC) and a Bearer JWT
 * (when `requireJwt`, or when one is sent). Sets `ctx.key`; throws a 401 GatewayError that never
 * says which of key, secret or token was wrong beyond what the client must fix.
 *
 * @example
 * await authenticate(ctx, keys); // ctx.key is now the TenantKey
 */
export async function authenticate(ctx: RequestContext, keys: KeyAuthenticator): Promise<void> {
  const { key, secret, bearer } = ctx.credentials;
  if (key === '') {
    throw new GatewayError(
      'UNAUTHORIZED',
      ctx.transport === 'ipfs'
        ? 'missing credentials: use HTTP basic auth with <API_KEY>:<API_KEY_SECRET>'
        : 'missing API key: use /v3/<API_KEY>',
    );
  }
  const tenant = await keys.authenticate(key);
  const settings = tenant?.record.settings;
  const secretNeeded = ctx.transport === 'ipfs' || secret !== undefined || settings?.requireSecret === true;
  if (secretNeeded) {
    const matches = secretMatches(secret ?? '', tenant?.record.secretHash ?? NO_SECRET_HASH);
    if (!tenant || !matches) {
      throw new GatewayError(
        'UNAUTHORIZED',
        ctx.transport === 'ipfs'
          ? 'invalid credentials: unknown or revoked API key, or wrong secret'
          : secret === undefined
            ? 'this API key requires its secret: send HTTP basic auth with the secret as password (curl --user :SECRET)'
            : 'invalid API key or secret: unknown or revoked key, or wrong secret',
      );
    }
  }
  if (!tenant) throw new GatewayError('UNAUTHORIZED', 'invalid API key: unknown or revoked');
  if (bearer !== undefined || tenant.record.settings.requireJwt) {
    if (bearer === undefined) {
      throw new GatewayError('UNAUTHORIZED', 'this API key requires a JWT: send Authorization: Bearer <token>');
    }
    const verdict = await verifyBearer(tenant.record.settings, bearer, tenant.record.key);
    if (!verdict.ok) throw new GatewayError('UNAUTHORIZED', `invalid JWT: ${verdict.reason}`);
  }
  ctx.key = tenant;
}
