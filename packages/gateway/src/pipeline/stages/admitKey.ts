import { GatewayError } from '../../errors/GatewayError.js';
import { verifyBearer } from '../../keys/restrictions/verifyBearer.js';
import { secretMatches } from '../../keys/secrets.js';
import type { RequestContext, TenantKey } from '../RequestContext.js';

/** A hash compared against when the key is unknown, so both paths cost the same. */
const NO_SECRET_HASH = '0'.repeat(64);

/**
 * The checks of stage "authenticate" once the key has been looked up (`tenant`: the active key,
 * or undefined): a key was given at all, the secret when it is needed (always for IPFS, whose
 * interface sends `KEY:SECRET`; when `requireSecret` or a secret is sent for JSON-RPC), then a
 * Bearer JWT when `requireJwt` or one is sent. Sets `ctx.key`. Throws the 401; returns a promise
 * only when a JWT is to be verified (the caller awaits it), so the common request awaits nothing
 * here.
 *
 * @example
 * const verifying = admitKey(ctx, await keys.authenticate(ctx.credentials.key));
 * if (verifying !== undefined) await verifying; // ctx.key is now the TenantKey
 */
export function admitKey(ctx: RequestContext, tenant: TenantKey | undefined): Promise<void> | undefined {
  const { key, secret, bearer } = ctx.credentials;
  if (key === '') {
    throw new GatewayError(
      'UNAUTHORIZED',
      ctx.transport === 'ipfs'
        ? 'missing credentials: use HTTP basic auth with <API_KEY>:<API_KEY_SECRET>'
        : 'missing API key: use /v3/<API_KEY>',
    );
  }
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
  if (bearer === undefined && !tenant.record.settings.requireJwt) {
    ctx.key = tenant;
    return undefined;
  }
  if (bearer === undefined) {
    throw new GatewayError(
      'UNAUTHORIZED',
      ctx.transport === 'ipfs'
        ? 'this API key requires a JWT: send X-Nodegate-JWT: <token> beside the basic credentials'
        : 'this API key requires a JWT: send Authorization: Bearer <token>',
    );
  }
  return verifyBearer(tenant.record.settings, bearer, tenant.record.key).then((verdict) => {
    if (!verdict.ok) throw new GatewayError('UNAUTHORIZED', `invalid JWT: ${verdict.reason}`);
    ctx.key = tenant;
  });
}
