import type { SqlSteps } from '../store/runSteps.js';
import type { SqlDialect } from '../store/SqlConnection.js';
import { SQLITE_NOW } from '../store/sqliteTime.js';

/** The AccountStore's operations, each as its statement(s) (`runSteps`: every statement gets the operation's parameters). */
export interface AccountStatements {
  /** [id, name, plan] */ readonly createAccount: SqlSteps;
  /** [id] */ readonly findAccount: SqlSteps;
  readonly listAccounts: SqlSteps;
  /** [id, name | null, plan | null] */ readonly updateAccount: SqlSteps;
  /** [id, email, passwordHash | null, operator] */ readonly createUser: SqlSteps;
  /** [id] */ readonly userById: SqlSteps;
  /** [email] */ readonly userByEmail: SqlSteps;
  /** [userId, passwordHash] */ readonly setPassword: SqlSteps;
  /** [accountId, userId, role] */ readonly addMember: SqlSteps;
  /** [accountId, userId, role]: the changed row, none when it would take the last owner away */ readonly setRole: SqlSteps;
  /** [accountId, userId]: likewise */ readonly removeMember: SqlSteps;
  /** [accountId, userId] */ readonly isMember: SqlSteps;
  /** [accountId] */ readonly members: SqlSteps;
  /** [accountId, userId] */ readonly role: SqlSteps;
  /** [userId] */ readonly accountsOf: SqlSteps;
  /** [idHash, userId, csrfToken, expiresAt] */ readonly createSession: SqlSteps;
  /** [idHash] */ readonly findSession: SqlSteps;
  /** [idHash] */ readonly deleteSession: SqlSteps;
  /** [userId, exceptIdHash] */ readonly deleteUserSessions: SqlSteps;
  readonly deleteExpiredSessions: SqlSteps;
  readonly deleteSpentSignInTokens: SqlSteps;
  /** [tokenHash, userId, expiresAt] */ readonly createSignInToken: SqlSteps;
  /** [tokenHash]: the user, once */ readonly redeemSignInToken: SqlSteps;
  /** [tokenHash]: a pending invitation with its account's name */ readonly findInvitation: SqlSteps;
  /** [accountId, email, tokenHash, id, role, invitedBy, expiresAt, maxPending] */ readonly createInvitation: SqlSteps;
  /** [accountId] */ readonly listInvitations: SqlSteps;
  /** [accountId, invitationId] */ readonly deleteInvitation: SqlSteps;
  /** [tokenHash, userId]: { account_id, role } */ readonly acceptInvitation: SqlSteps;
  /** [tokenHash, newUserId, passwordHash]: the user with account_id and member_role */ readonly acceptInvitationAsNewUser: SqlSteps;
  /** [tokenHash, name] */ readonly createAdminToken: SqlSteps;
  /** [tokenHash] */ readonly verifyAdminToken: SqlSteps;
  /** [tokenHash] */ readonly revokeAdminToken: SqlSteps;
}

const one = (sql: string): SqlSteps => [{ sql }];
const USER_COLS = 'u.id, u.email, u.password_hash, u.operator, u.created_at';
const INVITATION_COLS = 'i.id, i.account_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at';
// Keeps one owner: the change applies unless it takes the last owner away.
const KEEPS_OWNER = `(m.role <> 'owner' OR (SELECT count(*) FROM memberships o
  WHERE o.account_id = m.account_id AND o.role = 'owner') > 1)`;

const PG_PENDING = 'i.accepted_at IS NULL AND i.expires_at > now()';

/** PostgreSQL: each operation is one statement (changes chained in a `WITH`). */
const postgres: AccountStatements = {
  createAccount: one('INSERT INTO accounts (id, name, plan) VALUES ($1, $2, $3) RETURNING *'),
  findAccount: one('SELECT * FROM accounts WHERE id = $1'),
  listAccounts: one('SELECT * FROM accounts ORDER BY created_at, seq'),
  updateAccount: one(
    'UPDATE accounts SET name = COALESCE($2, name), plan = COALESCE($3, plan) WHERE id = $1 RETURNING *',
  ),
  createUser: one('INSERT INTO users (id, email, password_hash, operator) VALUES ($1, $2, $3, $4) RETURNING *'),
  userById: one(`SELECT ${USER_COLS} FROM users u WHERE u.id = $1`),
  userByEmail: one(`SELECT ${USER_COLS} FROM users u WHERE u.email = $1`),
  setPassword: one('UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id'),
  addMember: one('INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)'),
  setRole: one(`UPDATE memberships m SET role = $3 WHERE m.account_id = $1 AND m.user_id = $2
    AND ($3 = 'owner' OR ${KEEPS_OWNER}) RETURNING m.role`),
  removeMember: one(
    `DELETE FROM memberships m WHERE m.account_id = $1 AND m.user_id = $2 AND ${KEEPS_OWNER} RETURNING m.role`,
  ),
  isMember: one('SELECT 1 FROM memberships WHERE account_id = $1 AND user_id = $2'),
  members: one(`SELECT ${USER_COLS}, m.role FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.account_id = $1 ORDER BY m.created_at, u.email`),
  role: one('SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2'),
  accountsOf: one(`SELECT a.*, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
    WHERE m.user_id = $1 ORDER BY a.created_at, a.seq`),
  createSession: one('INSERT INTO sessions (id_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)'),
  findSession:
    one(`SELECT ${USER_COLS}, s.csrf_token, s.created_at AS session_created_at, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id_hash = $1 AND s.expires_at > now()`),
  deleteSession: one('DELETE FROM sessions WHERE id_hash = $1 RETURNING user_id'),
  deleteUserSessions: one('DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2 RETURNING user_id'),
  deleteExpiredSessions: one('DELETE FROM sessions WHERE expires_at <= now()'),
  deleteSpentSignInTokens: one('DELETE FROM sign_in_tokens WHERE expires_at <= now() OR used_at IS NOT NULL'),
  createSignInToken: one('INSERT INTO sign_in_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)'),
  redeemSignInToken: one(`WITH t AS (UPDATE sign_in_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id)
    SELECT ${USER_COLS} FROM t JOIN users u ON u.id = t.user_id`),
  findInvitation: one(`SELECT ${INVITATION_COLS}, a.name AS account_name
    FROM invitations i JOIN accounts a ON a.id = i.account_id WHERE i.token_hash = $1 AND ${PG_PENDING}`),
  // the email's earlier invitation (and used or expired ones) go, and the new one is written only
  // while the account has fewer than maxPending others pending
  createInvitation: one(`WITH gone AS (DELETE FROM invitations i WHERE i.account_id = $1
      AND (i.email = $2 OR i.accepted_at IS NOT NULL OR i.expires_at <= now()))
    INSERT INTO invitations (token_hash, id, account_id, email, role, invited_by, expires_at)
    SELECT $3, $4, $1, $2, $5, $6, $7
    WHERE (SELECT count(*) FROM invitations i WHERE i.account_id = $1 AND i.email <> $2 AND ${PG_PENDING}) < $8
    RETURNING *`),
  listInvitations: one(`SELECT ${INVITATION_COLS} FROM invitations i WHERE i.account_id = $1 AND ${PG_PENDING}
    ORDER BY i.created_at, i.email`),
  deleteInvitation: one(
    'DELETE FROM invitations WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING id',
  ),
  // the role read from memberships sees the table as it was before this statement: a member keeps theirs
  acceptInvitation: one(`WITH inv AS (UPDATE invitations i SET accepted_at = now(), accepted_by = $2
      WHERE i.token_hash = $1 AND ${PG_PENDING} AND i.email = (SELECT email FROM users WHERE id = $2)
      RETURNING i.account_id, i.role),
    m AS (INSERT INTO memberships (account_id, user_id, role) SELECT account_id, $2, role FROM inv
      ON CONFLICT (account_id, user_id) DO NOTHING RETURNING role)
    SELECT inv.account_id, COALESCE((SELECT role FROM m),
      (SELECT o.role FROM memberships o WHERE o.account_id = inv.account_id AND o.user_id = $2)) AS role
    FROM inv`),
  // the invitation is used, the user and the membership made, or nothing is
  acceptInvitationAsNewUser: one(`WITH inv AS (UPDATE invitations i SET accepted_at = now(), accepted_by = $2
      WHERE i.token_hash = $1 AND ${PG_PENDING} RETURNING i.account_id, i.email, i.role),
    u AS (INSERT INTO users (id, email, password_hash) SELECT $2, email, $3 FROM inv RETURNING *),
    m AS (INSERT INTO memberships (account_id, user_id, role) SELECT inv.account_id, u.id, inv.role FROM inv, u)
    SELECT u.id, u.email, u.password_hash, u.operator, u.created_at, inv.account_id, inv.role AS member_role
    FROM inv, u`),
  createAdminToken: one('INSERT INTO admin_tokens (token_hash, name) VALUES ($1, $2)'),
  verifyAdminToken: one('SELECT name FROM admin_tokens WHERE token_hash = $1'),
  revokeAdminToken: one('DELETE FROM admin_tokens WHERE token_hash = $1 RETURNING name'),
};

const NOW = SQLITE_NOW;
const PENDING = `accepted_at IS NULL AND expires_at > ${NOW}`;
const LITE_PENDING = `i.accepted_at IS NULL AND i.expires_at > ${NOW}`;

/**
 * SQLite (the embedded database): the same operations; where PostgreSQL chains changes in one
 * statement, SQLite (no data-modifying `WITH`) runs them in order in one transaction, a step that
 * finds nothing to change ending it (`stopUnlessRows`).
 */
const sqlite: AccountStatements = {
  createAccount: one('INSERT INTO accounts (id, name, plan) VALUES (?1, ?2, ?3) RETURNING *'),
  findAccount: one('SELECT * FROM accounts WHERE id = ?1'),
  listAccounts: one('SELECT * FROM accounts ORDER BY created_at, rowid'),
  updateAccount: one(
    'UPDATE accounts SET name = COALESCE(?2, name), plan = COALESCE(?3, plan) WHERE id = ?1 RETURNING *',
  ),
  createUser: one('INSERT INTO users (id, email, password_hash, operator) VALUES (?1, ?2, ?3, ?4) RETURNING *'),
  userById: one(`SELECT ${USER_COLS} FROM users u WHERE u.id = ?1`),
  userByEmail: one(`SELECT ${USER_COLS} FROM users u WHERE u.email = ?1`),
  setPassword: one('UPDATE users SET password_hash = ?2 WHERE id = ?1 RETURNING id'),
  addMember: one('INSERT INTO memberships (account_id, user_id, role) VALUES (?1, ?2, ?3)'),
  setRole: one(`UPDATE memberships AS m SET role = ?3 WHERE m.account_id = ?1 AND m.user_id = ?2
    AND (?3 = 'owner' OR ${KEEPS_OWNER}) RETURNING role`),
  removeMember: one(
    `DELETE FROM memberships AS m WHERE m.account_id = ?1 AND m.user_id = ?2 AND ${KEEPS_OWNER} RETURNING role`,
  ),
  isMember: one('SELECT 1 FROM memberships WHERE account_id = ?1 AND user_id = ?2'),
  members: one(`SELECT ${USER_COLS}, m.role FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.account_id = ?1 ORDER BY m.created_at, u.email`),
  role: one('SELECT role FROM memberships WHERE account_id = ?1 AND user_id = ?2'),
  accountsOf: one(`SELECT a.*, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
    WHERE m.user_id = ?1 ORDER BY a.created_at, a.rowid`),
  createSession: one('INSERT INTO sessions (id_hash, user_id, csrf_token, expires_at) VALUES (?1, ?2, ?3, ?4)'),
  findSession:
    one(`SELECT ${USER_COLS}, s.csrf_token, s.created_at AS session_created_at, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id_hash = ?1 AND s.expires_at > ${NOW}`),
  deleteSession: one('DELETE FROM sessions WHERE id_hash = ?1 RETURNING user_id'),
  deleteUserSessions: one('DELETE FROM sessions WHERE user_id = ?1 AND id_hash <> ?2 RETURNING user_id'),
  deleteExpiredSessions: one(`DELETE FROM sessions WHERE expires_at <= ${NOW}`),
  deleteSpentSignInTokens: one(`DELETE FROM sign_in_tokens WHERE expires_at <= ${NOW} OR used_at IS NOT NULL`),
  createSignInToken: one('INSERT INTO sign_in_tokens (token_hash, user_id, expires_at) VALUES (?1, ?2, ?3)'),
  redeemSignInToken: [
    {
      sql: `UPDATE sign_in_tokens SET used_at = ${NOW} WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ${NOW}
        RETURNING user_id`,
      stopUnlessRows: true,
    },
    { sql: `SELECT ${USER_COLS} FROM sign_in_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?1` },
  ],
  findInvitation: one(`SELECT ${INVITATION_COLS}, a.name AS account_name
    FROM invitations i JOIN accounts a ON a.id = i.account_id WHERE i.token_hash = ?1 AND ${LITE_PENDING}`),
  createInvitation: [
    {
      sql: `DELETE FROM invitations WHERE account_id = ?1
        AND (email = ?2 OR accepted_at IS NOT NULL OR expires_at <= ${NOW})`,
    },
    {
      sql: `INSERT INTO invitations (token_hash, id, account_id, email, role, invited_by, expires_at)
        SELECT ?3, ?4, ?1, ?2, ?5, ?6, ?7
        WHERE (SELECT count(*) FROM invitations i WHERE i.account_id = ?1 AND i.email <> ?2 AND ${LITE_PENDING}) < ?8
        RETURNING *`,
    },
  ],
  listInvitations: one(`SELECT ${INVITATION_COLS} FROM invitations i WHERE i.account_id = ?1 AND ${LITE_PENDING}
    ORDER BY i.created_at, i.email`),
  deleteInvitation: one(
    'DELETE FROM invitations WHERE account_id = ?1 AND id = ?2 AND accepted_at IS NULL RETURNING id',
  ),
  // a member keeps the role they had (the insert does nothing then)
  acceptInvitation: [
    {
      sql: `UPDATE invitations SET accepted_at = ${NOW}, accepted_by = ?2
        WHERE token_hash = ?1 AND ${PENDING} AND email = (SELECT email FROM users WHERE id = ?2)
        RETURNING account_id`,
      stopUnlessRows: true,
    },
    {
      sql: `INSERT INTO memberships (account_id, user_id, role)
        SELECT account_id, ?2, role FROM invitations WHERE token_hash = ?1
        ON CONFLICT (account_id, user_id) DO NOTHING`,
    },
    {
      sql: `SELECT i.account_id, m.role FROM invitations i
        JOIN memberships m ON m.account_id = i.account_id AND m.user_id = ?2 WHERE i.token_hash = ?1`,
    },
  ],
  // the user first (the invitation's accepted_by refers to it); an email taken fails the whole
  acceptInvitationAsNewUser: [
    {
      sql: `INSERT INTO users (id, email, password_hash)
        SELECT ?2, email, ?3 FROM invitations WHERE token_hash = ?1 AND ${PENDING} RETURNING id`,
      stopUnlessRows: true,
    },
    { sql: `UPDATE invitations SET accepted_at = ${NOW}, accepted_by = ?2 WHERE token_hash = ?1` },
    {
      sql: `INSERT INTO memberships (account_id, user_id, role)
        SELECT account_id, ?2, role FROM invitations WHERE token_hash = ?1`,
    },
    {
      sql: `SELECT u.id, u.email, u.password_hash, u.operator, u.created_at, i.account_id, i.role AS member_role
        FROM users u, invitations i WHERE u.id = ?2 AND i.token_hash = ?1`,
    },
  ],
  createAdminToken: one('INSERT INTO admin_tokens (token_hash, name) VALUES (?1, ?2)'),
  verifyAdminToken: one('SELECT name FROM admin_tokens WHERE token_hash = ?1'),
  revokeAdminToken: one('DELETE FROM admin_tokens WHERE token_hash = ?1 RETURNING name'),
};

/**
 * The AccountStore's statements, one set per dialect, with the same parameters in each.
 *
 * @example
 * const user = (await runSteps(sql, ACCOUNT_SQL[sql.dialect].userById, [id]))[0];
 */
export const ACCOUNT_SQL: Record<SqlDialect, AccountStatements> = { postgres, sqlite };
