import type { User } from '../accounts/AccountStore.js';
import type { AdminDeps } from './AdminDeps.js';
import type { SessionView } from './adminSchemas.js';
import { accountView, userView } from './adminViews.js';

/**
 * What a signed-in browser is told: who, their CSRF token and their accounts (the operator, or
 * an admin token: every account, with the caller's role where they are a member).
 *
 * @example
 * return sessionView(deps, user, session.csrfToken);
 */
export async function sessionView(
  deps: AdminDeps,
  user: User | undefined,
  csrfToken: string | null,
): Promise<SessionView> {
  const operator = user?.operator ?? true;
  let accounts: SessionView['accounts'];
  if (user && !operator) {
    accounts = (await deps.accounts.accountsOf(user.id)).map((a) => accountView(a, a.role));
  } else {
    const roles = new Map((user ? await deps.accounts.accountsOf(user.id) : []).map((a) => [a.id, a.role]));
    accounts = (await deps.accounts.listAccounts()).map((a) => accountView(a, roles.get(a.id) ?? null));
  }
  return { user: user ? userView(user) : null, operator, csrfToken, accounts };
}
