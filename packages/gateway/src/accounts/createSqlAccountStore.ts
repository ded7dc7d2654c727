import { createHash, randomBytes } from 'node:crypto';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import type { Account, AccountStore, AccountWithRole, Member, Role, User } from './AccountStore.js';
import { hashPassword } from './hashPassword.js';
import { verifyPassword } from './verifyPassword.js';

const SESSION_TTL_MS = 7 * 24 * 3600_000;
const SIGN_IN_TTL_MS = 15 * 60_000;

interface AccountRow {
  id: string;
  name: string;
  plan: string;
  created_at: Date | string;
  role?: Role;
}
interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  operator: boolean;
  created_at: Date | string;
  role?: Role;
}

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  createdAt: new Date(r.created_at),
});
const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  operator: r.operator,
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

const USER_COLS = 'u.id, u.email, u.password_hash, u.operator, u.created_at';
// Keeps one owner: the change applies unless it takes the last owner away.
const KEEPS_OWNER = `(m.role <> 'owner' OR (SELECT count(*) FROM memberships o
  WHERE o.account_id = m.account_id AND o.role = 'owner') > 1)`;

/**
 * The AccountStore over any SQL connection speaking PostgreSQL's dialect (PGlite or pg). The
 * schema (`SCHEMA` in `store/sql.ts`) must already be applied; `openDatabase` does it.
 *
 * @example
 * const accounts = createSqlAccountStore(query, () => db.close());
 * const acme = await accounts.createAccount({ name: 'Acme', plan: 'core' });
 */
export function createSqlAccountStore(query: SqlQuery, close: () => Promise<void>): AccountStore {
  const rows = async <R>(sql: string, params: unknown[] = []) => (await query<R>(sql, params)).rows;
  const one = async <R>(sql: string, params: unknown[] = []) => (await query<R>(sql, params)).rows[0];
  const userBy = async (where: string, value: string) => {
    const r = await one<UserRow>(`SELECT ${USER_COLS} FROM users u WHERE ${where} = $1`, [value]);
    return r && toUser(r);
  };
  const changed = async (sql: string, params: unknown[], accountId: string, userId: string) => {
    if ((await one(sql, params)) !== undefined) return 'changed' as const;
    const exists = await one('SELECT 1 FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
    return exists ? ('last-owner' as const) : ('not-found' as const);
  };

  return {
    async createAccount({ name, plan, id }) {
      const r = await one<AccountRow>('INSERT INTO accounts (id, name, plan) VALUES ($1, $2, $3) RETURNING *', [
        id ?? newId(),
        name,
        plan,
      ]);
      return toAccount(r!);
    },
    async findAccount(id) {
      const r = await one<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
      return r && toAccount(r);
    },
    async listAccounts() {
      return (await rows<AccountRow>('SELECT * FROM accounts ORDER BY created_at, seq')).map(toAccount);
    },
    async updateAccount(id, patch) {
      const r = await one<AccountRow>(
        `UPDATE accounts SET name = COALESCE($2, name), plan = COALESCE($3, plan) WHERE id = $1 RETURNING *`,
        [id, patch.name ?? null, patch.plan ?? null],
      );
      return r && toAccount(r);
    },

    async createUser({ email, password, operator }) {
      const hash = password == null ? null : await hashPassword(password);
      const r = await one<UserRow>(
        'INSERT INTO users (id, email, password_hash, operator) VALUES ($1, $2, $3, $4) RETURNING *',
        [newId(), email.trim().toLowerCase(), hash, operator ?? false],
      );
      return toUser(r!);
    },
    findUser: (id) => userBy('u.id', id),
    findUserByEmail: (email) => userBy('u.email', email.trim().toLowerCase()),
    async verifyPassword(email, password) {
      const r = await one<UserRow>(`SELECT ${USER_COLS} FROM users u WHERE u.email = $1`, [email.trim().toLowerCase()]);
      if (!r || r.password_hash === null) {
        dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
        await verifyPassword(password, await dummyHash);
        return undefined;
      }
      return (await verifyPassword(password, r.password_hash)) ? toUser(r) : undefined;
    },
    async setPassword(userId, password) {
      const hash = await hashPassword(password);
      const r = await one('UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id', [userId, hash]);
      if (!r) throw new Error('unknown user');
    },

    async addMember(accountId, userId, role) {
      await query('INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)', [accountId, userId, role]);
    },
    setRole: (accountId, userId, role) =>
      changed(
        `UPDATE memberships m SET role = $3 WHERE m.account_id = $1 AND m.user_id = $2
          AND ($3 = 'owner' OR ${KEEPS_OWNER}) RETURNING m.role`,
        [accountId, userId, role],
        accountId,
        userId,
      ),
    removeMember: (accountId, userId) =>
      changed(
        `DELETE FROM memberships m WHERE m.account_id = $1 AND m.user_id = $2 AND ${KEEPS_OWNER} RETURNING m.role`,
        [accountId, userId],
        accountId,
        userId,
      ),
    async members(accountId) {
      const list = await rows<UserRow & { role: Role }>(
        `SELECT ${USER_COLS}, m.role FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.account_id = $1 ORDER BY m.created_at, u.email`,
        [accountId],
      );
      return list.map((r): Member => ({ ...toUser(r), role: r.role }));
    },
    async role(accountId, userId) {
      const r = await one<{ role: Role }>('SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2', [
        accountId,
        userId,
      ]);
      return r?.role;
    },
    async accountsOf(userId) {
      const list = await rows<AccountRow & { role: Role }>(
        `SELECT a.*, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
          WHERE m.user_id = $1 ORDER BY a.created_at, a.seq`,
        [userId],
      );
      return list.map((r): AccountWithRole => ({ ...toAccount(r), role: r.role }));
    },

    async createSession(userId, options = {}) {
      const id = newToken();
      const csrfToken = newToken();
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? SESSION_TTL_MS));
      await query('INSERT INTO sessions (id_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [
        sha256(id),
        userId,
        csrfToken,
        expiresAt,
      ]);
      return { id, csrfToken, expiresAt };
    },
    async findSession(id) {
      const r = await one<UserRow & { csrf_token: string; expires_at: Date | string }>(
        `SELECT ${USER_COLS}, s.csrf_token, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id_hash = $1 AND s.expires_at > now()`,
        [sha256(id)],
      );
      return r && { user: toUser(r), csrfToken: r.csrf_token, expiresAt: new Date(r.expires_at) };
    },
    async deleteSession(id) {
      return (await one('DELETE FROM sessions WHERE id_hash = $1 RETURNING user_id', [sha256(id)])) !== undefined;
    },
    async deleteUserSessions(userId, exceptId) {
      const gone = await rows('DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2 RETURNING user_id', [
        userId,
        exceptId === undefined ? '' : sha256(exceptId),
      ]);
      // expired sessions of anyone go too
      await query('DELETE FROM sessions WHERE expires_at <= now()');
      return gone.length;
    },

    async createSignInToken(userId, options = {}) {
      const token = newToken();
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? SIGN_IN_TTL_MS));
      await query('DELETE FROM sign_in_tokens WHERE expires_at <= now() OR used_at IS NOT NULL');
      await query('INSERT INTO sign_in_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
        sha256(token),
        userId,
        expiresAt,
      ]);
      return { token, expiresAt };
    },
    async redeemSignInToken(token) {
      const r = await one<UserRow>(
        `WITH t AS (UPDATE sign_in_tokens SET used_at = now()
            WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id)
          SELECT ${USER_COLS} FROM t JOIN users u ON u.id = t.user_id`,
        [sha256(token)],
      );
      return r && toUser(r);
    },

    async createAdminToken(name) {
      const token = newToken();
      await query('INSERT INTO admin_tokens (token_hash, name) VALUES ($1, $2)', [sha256(token), name]);
      return { token };
    },
    async verifyAdminToken(token) {
      const r = await one<{ name: string }>('SELECT name FROM admin_tokens WHERE token_hash = $1', [sha256(token)]);
      return r && { name: r.name };
    },
    async revokeAdminToken(token) {
      return (
        (await one('DELETE FROM admin_tokens WHERE token_hash = $1 RETURNING name', [sha256(token)])) !== undefined
      );
    },
    close,
  };
}
