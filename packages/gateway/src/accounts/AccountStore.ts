/** What a member may do in an account: owner (everything, members too), admin (keys, settings), viewer (read). */
export type Role = 'owner' | 'admin' | 'viewer';

/** The roles, strongest first. */
export const ROLES: readonly Role[] = ['owner', 'admin', 'viewer'];

/** A tenant: holds keys and members, and has a plan. */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly plan: string;
  readonly createdAt: Date;
}

/** A person who signs in. The password hash never leaves the store. */
export interface User {
  readonly id: string;
  /** Lowercase. */
  readonly email: string;
  /** The operator sees and changes every account (and sets plans). */
  readonly operator: boolean;
  /** False until a password is set (the operator signs in by one-time link first). */
  readonly hasPassword: boolean;
  readonly createdAt: Date;
}

/** A user's place in an account. */
export interface Member extends User {
  readonly role: Role;
}

/** An account as one of a user's accounts. */
export interface AccountWithRole extends Account {
  readonly role: Role;
}

/** A signed-in browser: the session id goes in the cookie; only its SHA-256 is stored. */
export interface NewSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

/** A live session, found by its id. */
export interface Session {
  readonly user: User;
  readonly csrfToken: string;
  /** When it was signed in (a password is set only within minutes of it, when there is none yet). */
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** An owner's pending invitation to join an account (its token is shown once, to the inviter). */
export interface Invitation {
  readonly id: string;
  readonly accountId: string;
  /** Lowercase. */
  readonly email: string;
  readonly role: Role;
  /** The user who invited (null for an admin token, or when that user is gone). */
  readonly invitedBy: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A pending invitation found by its token, with the name of the account it is for. */
export interface InvitationWithAccount extends Invitation {
  readonly accountName: string;
}

/** What accepting an invitation did: the membership it made (or found: a member keeps their role). */
export interface AcceptedInvitation {
  readonly accountId: string;
  readonly role: Role;
}

/** Result of a membership change that must keep one owner. */
export type MembershipChange = 'changed' | 'not-found' | 'last-owner';

/**
 * Accounts, users, memberships, invitations, sessions, one-time sign-in tokens and admin tokens. One SQL
 * implementation runs over PGlite and PostgreSQL (`accountStoreContract.ts`). Tokens and
 * session ids are random 32-byte values; only their SHA-256 is stored and they are found by it.
 */
export interface AccountStore {
  /** Creates an account (a random id unless `id` is given); rejects a duplicate id. */
  createAccount(input: { name: string; plan: string; id?: string }): Promise<Account>;
  findAccount(id: string): Promise<Account | undefined>;
  /** Every account, oldest first. */
  listAccounts(): Promise<Account[]>;
  /** Changes name and/or plan; undefined when the account is unknown. */
  updateAccount(id: string, patch: { name?: string; plan?: string }): Promise<Account | undefined>;

  /**
   * Creates a user; the email is stored lowercase (and must be unique). `password` (at least
   * {@link MIN_PASSWORD_LENGTH} characters) is hashed with scrypt; null leaves the user without one.
   */
  createUser(input: { email: string; password?: string | null; operator?: boolean }): Promise<User>;
  findUser(id: string): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  /** The user when the password is theirs; undefined otherwise (unknown email, no password, wrong one). */
  verifyPassword(email: string, password: string): Promise<User | undefined>;
  /** Sets (or replaces) a user's password. */
  setPassword(userId: string, password: string): Promise<void>;

  /** Adds a member; rejects when the user already is one. */
  addMember(accountId: string, userId: string, role: Role): Promise<void>;
  /** Changes a member's role; refuses to demote the last owner. */
  setRole(accountId: string, userId: string, role: Role): Promise<MembershipChange>;
  /** Removes a member; refuses to remove the last owner. */
  removeMember(accountId: string, userId: string): Promise<MembershipChange>;
  /** The account's members, oldest membership first. */
  members(accountId: string): Promise<Member[]>;
  /** The user's role in the account, or undefined when not a member. */
  role(accountId: string, userId: string): Promise<Role | undefined>;
  /** The accounts the user is a member of, oldest first. */
  accountsOf(userId: string): Promise<AccountWithRole[]>;

  /** Starts a session (default 7 days). */
  createSession(userId: string, options?: { ttlMs?: number }): Promise<NewSession>;
  /** The live session with this id; undefined when unknown or expired. */
  findSession(id: string): Promise<Session | undefined>;
  /** Ends a session; false when it was unknown. */
  deleteSession(id: string): Promise<boolean>;
  /** Ends every session of a user except `exceptId` (after a password change). */
  deleteUserSessions(userId: string, exceptId?: string): Promise<number>;

  /** A one-time sign-in token (default 15 minutes). */
  createSignInToken(userId: string, options?: { ttlMs?: number }): Promise<{ token: string; expiresAt: Date }>;
  /** Uses a sign-in token: the user the first time within its lifetime, undefined after. */
  redeemSignInToken(token: string): Promise<User | undefined>;

  /**
   * Invites `email` into an account with `role`: a random 32-byte token (only its SHA-256 is
   * stored), valid for `ttlMs` (default 7 days) and once. A pending invitation of the same email
   * to the same account is replaced (its token stops working). Undefined when the account already
   * has `maxPending` (default 100) pending invitations. Never creates or reads a user.
   */
  createInvitation(
    input: { accountId: string; email: string; role: Role; invitedBy: string | null },
    options?: { ttlMs?: number; maxPending?: number },
  ): Promise<{ invitation: Invitation; token: string } | undefined>;
  /** The pending (unused, unexpired) invitation with this token. */
  findInvitation(token: string): Promise<InvitationWithAccount | undefined>;
  /** The account's pending invitations, oldest first. */
  listInvitations(accountId: string): Promise<Invitation[]>;
  /** Withdraws a pending invitation; false when the account has no such pending invitation. */
  deleteInvitation(accountId: string, invitationId: string): Promise<boolean>;
  /**
   * Uses the invitation for an existing user, in one statement: undefined (and nothing changes)
   * unless the token is pending and the invitation's email is the user's. A user who already is
   * a member keeps their role.
   */
  acceptInvitation(token: string, userId: string): Promise<AcceptedInvitation | undefined>;
  /**
   * Uses the invitation for an email that has no user yet: creates the user with `password`
   * (the invitee's own) and the membership, in one statement. `'user-exists'` (nothing changes)
   * when the email has a user; undefined when the token is not pending.
   */
  acceptInvitationAsNewUser(
    token: string,
    password: string,
  ): Promise<(AcceptedInvitation & { user: User }) | 'user-exists' | undefined>;

  /** An operator-level token for the CLI and automation. */
  createAdminToken(name: string): Promise<{ token: string }>;
  /** The token's name when it is a valid admin token. */
  verifyAdminToken(token: string): Promise<{ name: string } | undefined>;
  /** Invalidates an admin token; false when it was unknown. */
  revokeAdminToken(token: string): Promise<boolean>;

  close(): Promise<void>;
}

/** Passwords shorter than this are refused. */
export const MIN_PASSWORD_LENGTH = 10;

/** How long an invitation can be accepted, by default. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** Pending invitations an account may have at once, by default (what one owner can make the database hold). */
export const MAX_PENDING_INVITATIONS = 100;
