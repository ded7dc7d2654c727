import { createHash, randomBytes } from 'node:crypto';
import { runSteps } from '../store/runSteps.js';
import type { SqlConnection } from '../store/SqlConnection.js';
import {
  type Account,
  type AccountStore,
  type AccountWithRole,
  INVITATION_TTL_MS,
  type Invitation,
  MAX_PENDING_INVITATIONS,
  type Member,
  type Role,
  type User,
} from './AccountStore.js';
import { ACCOUNT_SQL } from './accountSql.js';
import { hashPassword, passwordWorkIsFull } from './hashPassword.js';
import { PasswordWorkBusyError } from './PasswordWorkBusyError.js';
import { verifyPassword } from './verifyPassword.js';

const SESSION_TTL_MS = 7 * 24 * 3600_000;
const SIGN_IN_TTL_MS = 15 * 60_000;

/** A stored time: a Date (PostgreSQL) or epoch ms (SQLite). */
type Time = Date | string | number;

interface AccountRow {
  id: string;
  name: string;
  plan: string;
  created_at: Time;
  role?: Role;
}
interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  /** boolean (PostgreSQL) or 0/1 (SQLite) */
  operator: boolean | number;
  created_at: Time;
  role?: Role;
}

interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Time;
  expires_at: Time;
}

const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});
/** PostgreSQL's unique_violation (the embedded SQLite's UNIQUE failures have the same code). */
const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  createdAt: new Date(r.created_at),
});
const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  operator: Boolean(r.operator),
  hasPassword: r.password_hash !== null,
  createdAt: new Date(r.created_at),
});

/** A random 32-byte token, base64url. */
const newToken = () => randomBytes(32).toString('base64url');
/** Ids of accounts and users: 16 random bytes, hex. */
const newId = () => randomBytes(16).toString('hex');
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

// A hash verified when the email is unknown, so both answers take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * The AccountStore over a SQL connection, in its dialect (`ACCOUNT_SQL`: PostgreSQL's, or the
 * embedded SQLite's, where an operation PostgreSQL writes as one statement is one transaction).
 * The schema (`SCHEMA` or `SQLITE_SCHEMA` in `store/sql.ts`) must already be applied;
 * `openDatabase` does it.
 *
 * @example
 * const accounts = createSqlAccountStore(db.sql, () => db.close());
 * const acme = await accounts.createAccount({ name: 'Acme', plan: 'core' });
 */
export function createSqlAccountStore(sql: SqlConnection, close: () => Promise<void>): AccountStore {
  const S = ACCOUNT_SQL[sql.dialect];
  const rows = <R>(steps: typeof S.findAccount, params: unknown[] = []) => runSteps<R>(sql, steps, params);
  const one = async <R>(steps: typeof S.findAccount, params: unknown[] = []) => (await rows<R>(steps, params))[0];
  const userBy = async (steps: typeof S.userById, value: string) => {
    const r = await one<UserRow>(steps, [value]);
    return r && toUser(r);
  };
  const findInvitation = async (token: string) => {
    const r = await one<InvitationRow & { account_name: string }>(S.findInvitation, [sha256(token)]);
    return r && { ...toInvitation(r), accountName: r.account_name };
  };
  const changed = async (steps: typeof S.setRole, params: unknown[], accountId: string, userId: string) => {
    if ((await one(steps, params)) !== undefined) return 'changed' as const;
    const exists = await one(S.isMember, [accountId, userId]);
    return exists ? ('last-owner' as const) : ('not-found' as const);
  };

  return {
    async createAccount({ name, plan, id }) {
      const r = await one<AccountRow>(S.createAccount, [id ?? newId(), name, plan]);
      return toAccount(r!);
    },
    async findAccount(id) {
      const r = await one<AccountRow>(S.findAccount, [id]);
      return r && toAccount(r);
    },
    async listAccounts() {
      return (await rows<AccountRow>(S.listAccounts)).map(toAccount);
    },
    async updateAccount(id, patch) {
      const r = await one<AccountRow>(S.updateAccount, [id, patch.name ?? null, patch.plan ?? null]);
      return r && toAccount(r);
    },

    async createUser({ email, password, operator }) {
      const hash = password == null ? null : await hashPassword(password);
      const r = await one<UserRow>(S.createUser, [newId(), email.trim().toLowerCase(), hash, operator ?? false]);
      return toUser(r!);
    },
    findUser: (id) => userBy(S.userById, id),
    findUserByEmail: (email) => userBy(S.userByEmail, email.trim().toLowerCase()),
    async verifyPassword(email, password) {
      // refused before the lookup when no scrypt run could start: a refused attempt costs nothing
      if (passwordWorkIsFull()) throw new PasswordWorkBusyError();
      const r = await one<UserRow>(S.userByEmail, [email.trim().toLowerCase()]);
      if (!r || r.password_hash === null) {
        dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
        await verifyPassword(password, await dummyHash);
        return undefined;
      }
      return (await verifyPassword(password, r.password_hash)) ? toUser(r) : undefined;
    },
    async setPassword(userId, password) {
      const hash = await hashPassword(password);
      const r = await one(S.setPassword, [userId, hash]);
      if (!r) throw new Error('unknown user');
    },

    async addMember(accountId, userId, role) {
      await rows(S.addMember, [accountId, userId, role]);
    },
    setRole: (accountId, userId, role) => changed(S.setRole, [accountId, userId, role], accountId, userId),
    removeMember: (accountId, userId) => changed(S.removeMember, [accountId, userId], accountId, userId),
    async members(accountId) {
      const list = await rows<UserRow & { role: Role }>(S.members, [accountId]);
      return list.map((r): Member => ({ ...toUser(r), role: r.role }));
    },
    async role(accountId, userId) {
      const r = await one<{ role: Role }>(S.role, [accountId, userId]);
      return r?.role;
    },
    async accountsOf(userId) {
      const list = await rows<AccountRow & { role: Role }>(S.accountsOf, [userId]);
      return list.map((r): AccountWithRole => ({ ...toAccount(r), role: r.role }));
    },

    async createSession(userId, options = {}) {
      const id = newToken();
      const csrfToken = newToken();
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? SESSION_TTL_MS));
      await rows(S.createSession, [sha256(id), userId, csrfToken, expiresAt]);
      return { id, csrfToken, expiresAt };
    },
    async findSession(id) {
      const r = await one<UserRow & { csrf_token: string; session_created_at: Time; expires_at: Time }>(S.findSession, [
        sha256(id),
      ]);
      return (
        r && {
          user: toUser(r),
          csrfToken: r.csrf_token,
          createdAt: new Date(r.session_created_at),
          expiresAt: new Date(r.expires_at),
        }
      );
    },
    async deleteSession(id) {
      return (await one(S.deleteSession, [sha256(id)])) !== undefined;
    },
    async deleteUserSessions(userId, exceptId) {
      const gone = await rows(S.deleteUserSessions, [userId, exceptId === undefined ? '' : sha256(exceptId)]);
      // expired sessions of anyone go too
      await rows(S.deleteExpiredSessions);
      return gone.length;
    },

    async createSignInToken(userId, options = {}) {
      const token = newToken();
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? SIGN_IN_TTL_MS));
      await rows(S.deleteSpentSignInTokens);
      await rows(S.createSignInToken, [sha256(token), userId, expiresAt]);
      return { token, expiresAt };
    },
    async redeemSignInToken(token) {
      const r = await one<UserRow>(S.redeemSignInToken, [sha256(token)]);
      return r && toUser(r);
    },

    async createInvitation({ accountId, email, role, invitedBy }, options = {}) {
      const token = newToken();
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? INVITATION_TTL_MS));
      const lower = email.trim().toLowerCase();
      // the email's earlier invitation (and used or expired ones) go, and the new one is written
      // only while the account has fewer than maxPending others pending: one statement, or one
      // transaction
      const r = await one<InvitationRow>(S.createInvitation, [
        accountId,
        lower,
        sha256(token),
        newId(),
        role,
        invitedBy,
        expiresAt,
        options.maxPending ?? MAX_PENDING_INVITATIONS,
      ]);
      return r && { invitation: toInvitation(r), token };
    },
    findInvitation,
    async listInvitations(accountId) {
      return (await rows<InvitationRow>(S.listInvitations, [accountId])).map(toInvitation);
    },
    async deleteInvitation(accountId, invitationId) {
      return (await one(S.deleteInvitation, [accountId, invitationId])) !== undefined;
    },
    async acceptInvitation(token, userId) {
      const r = await one<{ account_id: string; role: Role }>(S.acceptInvitation, [sha256(token), userId]);
      return r && { accountId: r.account_id, role: r.role };
    },
    async acceptInvitationAsNewUser(token, password) {
      const pending = await findInvitation(token);
      if (!pending) return undefined;
      if (await userBy(S.userByEmail, pending.email)) return 'user-exists';
      const hash = await hashPassword(password);
      try {
        // the invitation is used, the user and the membership made, or nothing is
        const r = await one<UserRow & { account_id: string; member_role: Role }>(S.acceptInvitationAsNewUser, [
          sha256(token),
          newId(),
          hash,
        ]);
        return r && { user: toUser(r), accountId: r.account_id, role: r.member_role };
      } catch (err) {
        if (isUniqueViolation(err)) return 'user-exists';
        throw err;
      }
    },

    async createAdminToken(name) {
      const token = newToken();
      await rows(S.createAdminToken, [sha256(token), name]);
      return { token };
    },
    async verifyAdminToken(token) {
      const r = await one<{ name: string }>(S.verifyAdminToken, [sha256(token)]);
      return r && { name: r.name };
    },
    async revokeAdminToken(token) {
      return (await one(S.revokeAdminToken, [sha256(token)])) !== undefined;
    },
    close,
  };
}
