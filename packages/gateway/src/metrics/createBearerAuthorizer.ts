import type { IncomingMessage } from 'node:http';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * An `authorize` for {@link createMetricsHandler}: true when the request carries
 * `Authorization: Bearer <token>` and `verify(token)` returns a value (the admin API's
 * `accounts.verifyAdminToken`, which compares hashes).
 *
 * @example
 * const authorize = createBearerAuthorizer((t) => db.accounts.verifyAdminToken(t));
 * await authorize(req) // false without a valid admin token
 */
export function createBearerAuthorizer(
  verify: (token: string) => Promise<unknown>,
): (req: IncomingMessage) => Promise<boolean> {
  return async (req) => {
    const m = BEARER.exec(req.headers.authorization ?? '');
    if (!m) return false;
    return (await verify(m[1]!)) !== undefined;
  };
}
