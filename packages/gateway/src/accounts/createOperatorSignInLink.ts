import type { AccountStore } from './AccountStore.js';

/** How long a one-time sign-in link can be used. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;

/**
 * A new one-time dashboard sign-in link for a user (the operator): a random token (only its
 * SHA-256 is stored) that signs in once within 15 minutes, as
 * `<baseUrl>/dashboard/sign-in?token=…`. Earlier links stay valid until used or expired.
 *
 * @example
 * const { url, expiresAt } = await createOperatorSignInLink(accounts, operator.id, 'http://127.0.0.1:8550');
 */
export async function createOperatorSignInLink(
  accounts: AccountStore,
  userId: string,
  baseUrl: string,
): Promise<{ url: string; expiresAt: Date }> {
  const { token, expiresAt } = await accounts.createSignInToken(userId, { ttlMs: SIGN_IN_LINK_TTL_MS });
  return { url: `${baseUrl.replace(/\/$/, '')}/dashboard/sign-in?token=${encodeURIComponent(token)}`, expiresAt };
}
