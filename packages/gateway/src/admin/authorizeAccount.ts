import type { FastifyRequest } from 'fastify';
import type { Account, Role } from '../accounts/AccountStore.js';
import type { AdminDeps, Caller } from './AdminDeps.js';
import { callers } from './AdminDeps.js';
import { AdminError } from './AdminError.js';

/** What the caller wants to do in an account. */
export type AccountAccess = 'read' | 'keys' | 'settings' | 'members';

const REFUSALS: Record<Exclude<AccountAccess, 'read'>, { allowed: readonly Role[]; message: string }> = {
  keys: { allowed: ['owner', 'admin'], message: 'viewers cannot change keys' },
  settings: { allowed: ['owner', 'admin'], message: 'viewers cannot change the account' },
  members: { allowed: ['owner'], message: 'only owners can manage members' },
};

/** The request's caller (the auth hook has set it on every non-public route). */
export function callerOf(req: FastifyRequest): Caller {
  const caller = callers.get(req);
  if (!caller) throw new AdminError(401, 'unauthenticated', 'sign in or send an admin token');
  return caller;
}

/**
 * The account when the caller may do `access` in it. Someone who is not a member gets 404,
 * as if it did not exist (tenant isolation); a member without the role gets 403. The operator
 * may do everything everywhere.
 *
 * @example
 * const { account, role } = await authorizeAccount(deps, req, params.id, 'keys');
 */
export async function authorizeAccount(
  deps: AdminDeps,
  req: FastifyRequest,
  accountId: string,
  access: AccountAccess,
): Promise<{ account: Account; role: Role | null; caller: Caller }> {
  const caller = callerOf(req);
  const account = await deps.accounts.findAccount(accountId);
  const role = account && caller.user ? ((await deps.accounts.role(account.id, caller.user.id)) ?? null) : null;
  if (!account || (!caller.operator && role === null)) {
    throw new AdminError(404, 'not_found', 'account not found');
  }
  if (access !== 'read' && !caller.operator && !REFUSALS[access].allowed.includes(role!)) {
    throw new AdminError(403, 'forbidden', REFUSALS[access].message);
  }
  return { account, role, caller };
}
