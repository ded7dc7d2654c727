import { describe, expect, it } from 'vitest';
import type { Database } from '../store/Database.js';

/**
 * The one contract the AccountStore passes over every database (embedded PGlite, PostgreSQL).
 * `open` returns a fresh, empty database.
 *
 * @example
 * accountStoreContract('PostgreSQL', () => openPostgresDatabase(url, { schema }));
 */
export function accountStoreContract(name: string, open: () => Promise<Database>) {
  const withDb = (fn: (db: Database) => Promise<void>) => async () => {
    const db = await open();
    try {
      await fn(db);
    } finally {
      await db.close();
    }
  };

  describe(`AccountStore contract: ${name}`, () => {
    it(
      'creates, finds, lists and updates accounts',
      withDb(async ({ accounts }) => {
        const a = await accounts.createAccount({ name: 'Acme', plan: 'core' });
        expect(a.id).toMatch(/^[0-9a-f]{32}$/);
        expect(a).toMatchObject({ name: 'Acme', plan: 'core' });
        expect(await accounts.findAccount(a.id)).toEqual(a);
        expect(await accounts.findAccount('nope')).toBeUndefined();
        await expect(accounts.createAccount({ id: a.id, name: 'dup', plan: 'core' })).rejects.toThrow();
        expect(await accounts.updateAccount(a.id, { name: 'Acme Inc' })).toMatchObject({
          name: 'Acme Inc',
          plan: 'core',
        });
        expect(await accounts.updateAccount(a.id, { plan: 'team' })).toMatchObject({ name: 'Acme Inc', plan: 'team' });
        expect(await accounts.updateAccount('nope', { name: 'x' })).toBeUndefined();
        // the operator account exists from the start
        expect((await accounts.listAccounts()).map((x) => x.name)).toEqual(['operator', 'Acme Inc']);
      }),
    );

    it(
      'stores users with lowercase unique emails and scrypt passwords',
      withDb(async ({ accounts, query }) => {
        const u = await accounts.createUser({ email: ' Alice@Example.COM ', password: 'correct horse battery' });
        expect(u).toMatchObject({ email: 'alice@example.com', operator: false, hasPassword: true });
        expect(JSON.stringify(u)).not.toContain('scrypt');
        const stored = (await query<{ password_hash: string }>('SELECT password_hash FROM users')).rows[0]!;
        expect(stored.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
        expect(stored.password_hash).not.toContain('correct horse');
        await expect(accounts.createUser({ email: 'ALICE@example.com' })).rejects.toThrow();
        await expect(accounts.createUser({ email: 'short@example.com', password: 'too short' })).rejects.toThrow(
          /at least 10/,
        );
        expect((await accounts.verifyPassword('alice@EXAMPLE.com', 'correct horse battery'))?.id).toBe(u.id);
        expect(await accounts.verifyPassword('alice@example.com', 'correct horse batterY')).toBeUndefined();
        expect(await accounts.verifyPassword('bob@example.com', 'correct horse battery')).toBeUndefined();
        const op = await accounts.createUser({ email: 'op@localhost', operator: true });
        expect(op).toMatchObject({ operator: true, hasPassword: false });
        expect(await accounts.verifyPassword('op@localhost', '')).toBeUndefined();
        await accounts.setPassword(op.id, 'a new password');
        expect((await accounts.verifyPassword('op@localhost', 'a new password'))?.hasPassword).toBe(true);
        expect(await accounts.findUserByEmail('OP@localhost')).toMatchObject({ id: op.id, hasPassword: true });
        expect(await accounts.findUser(u.id)).toEqual(u);
      }),
    );

    it(
      'keeps memberships with roles and at least one owner',
      withDb(async ({ accounts }) => {
        const acme = await accounts.createAccount({ name: 'Acme', plan: 'core' });
        const other = await accounts.createAccount({ name: 'Other', plan: 'core' });
        const alice = await accounts.createUser({ email: 'alice@example.com' });
        const bob = await accounts.createUser({ email: 'bob@example.com' });
        await accounts.addMember(acme.id, alice.id, 'owner');
        await accounts.addMember(acme.id, bob.id, 'viewer');
        await accounts.addMember(other.id, bob.id, 'owner');
        await expect(accounts.addMember(acme.id, bob.id, 'admin')).rejects.toThrow();
        expect(await accounts.role(acme.id, bob.id)).toBe('viewer');
        expect(await accounts.role(acme.id, 'nobody')).toBeUndefined();
        expect((await accounts.members(acme.id)).map((m) => [m.email, m.role])).toEqual([
          ['alice@example.com', 'owner'],
          ['bob@example.com', 'viewer'],
        ]);
        expect((await accounts.accountsOf(bob.id)).map((a) => [a.name, a.role])).toEqual([
          ['Acme', 'viewer'],
          ['Other', 'owner'],
        ]);
        // the last owner can neither be demoted nor removed
        expect(await accounts.setRole(acme.id, alice.id, 'admin')).toBe('last-owner');
        expect(await accounts.removeMember(acme.id, alice.id)).toBe('last-owner');
        expect(await accounts.setRole(acme.id, 'nobody', 'admin')).toBe('not-found');
        expect(await accounts.setRole(acme.id, bob.id, 'owner')).toBe('changed');
        expect(await accounts.setRole(acme.id, alice.id, 'admin')).toBe('changed');
        expect(await accounts.removeMember(acme.id, alice.id)).toBe('changed');
        expect(await accounts.removeMember(acme.id, alice.id)).toBe('not-found');
        expect(await accounts.removeMember(acme.id, bob.id)).toBe('last-owner');
        expect((await accounts.members(acme.id)).map((m) => m.role)).toEqual(['owner']);
      }),
    );

    it(
      'sessions: stored hashed, found until they expire, ended one by one or all but one',
      withDb(async ({ accounts, query }) => {
        const u = await accounts.createUser({ email: 'alice@example.com' });
        const s = await accounts.createSession(u.id);
        expect(s.id).toMatch(/^[\w-]{43}$/);
        expect(s.csrfToken).toMatch(/^[\w-]{43}$/);
        expect(s.expiresAt.getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
        const ids = (await query<{ id_hash: string }>('SELECT id_hash FROM sessions')).rows.map((r) => r.id_hash);
        expect(ids).not.toContain(s.id);
        expect(await accounts.findSession(s.id)).toMatchObject({ user: { id: u.id }, csrfToken: s.csrfToken });
        // when it was signed in (a first password is set only within minutes of it)
        const signedIn = (await accounts.findSession(s.id))!.createdAt.getTime();
        expect(Math.abs(signedIn - Date.now())).toBeLessThan(60_000);
        expect(await accounts.findSession(`${s.id}x`)).toBeUndefined();
        const expired = await accounts.createSession(u.id, { ttlMs: -1000 });
        expect(await accounts.findSession(expired.id)).toBeUndefined();
        const other = await accounts.createSession(u.id);
        expect(await accounts.deleteUserSessions(u.id, s.id)).toBe(2);
        expect(await accounts.findSession(other.id)).toBeUndefined();
        expect(await accounts.findSession(s.id)).toBeDefined();
        expect(await accounts.deleteSession(s.id)).toBe(true);
        expect(await accounts.deleteSession(s.id)).toBe(false);
        expect(await accounts.findSession(s.id)).toBeUndefined();
      }),
    );

    it(
      'sign-in tokens work once and only before they expire',
      withDb(async ({ accounts, query }) => {
        const u = await accounts.createUser({ email: 'op@localhost', operator: true });
        const t = await accounts.createSignInToken(u.id);
        expect(t.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
        expect(t.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
        const stored = (await query<{ token_hash: string }>('SELECT token_hash FROM sign_in_tokens')).rows;
        expect(stored.map((r) => r.token_hash)).not.toContain(t.token);
        expect(await accounts.redeemSignInToken('nonsense')).toBeUndefined();
        const [first, second] = await Promise.all([
          accounts.redeemSignInToken(t.token),
          accounts.redeemSignInToken(t.token),
        ]);
        expect([first?.id, second?.id].filter(Boolean)).toEqual([u.id]);
        expect(await accounts.redeemSignInToken(t.token)).toBeUndefined();
        const old = await accounts.createSignInToken(u.id, { ttlMs: -1 });
        expect(await accounts.redeemSignInToken(old.token)).toBeUndefined();
      }),
    );

    it(
      'invitations: stored hashed, pending until used once or expired, replaced per email, bounded per account',
      withDb(async ({ accounts, query }) => {
        const acme = await accounts.createAccount({ name: 'Acme', plan: 'core' });
        const owner = await accounts.createUser({ email: 'owner@acme.test' });
        const made = await accounts.createInvitation({
          accountId: acme.id,
          email: ' Carol@Example.COM ',
          role: 'admin',
          invitedBy: owner.id,
        });
        expect(made!.token).toMatch(/^[\w-]{43}$/);
        expect(made!.invitation).toMatchObject({ accountId: acme.id, email: 'carol@example.com', role: 'admin' });
        expect(made!.invitation.invitedBy).toBe(owner.id);
        const ttl = made!.invitation.expiresAt.getTime() - Date.now();
        expect(ttl).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
        expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600_000);
        expect(JSON.stringify((await query('SELECT * FROM invitations')).rows)).not.toContain(made!.token);
        // inviting creates no user
        expect(await accounts.findUserByEmail('carol@example.com')).toBeUndefined();
        expect(await accounts.findInvitation(made!.token)).toEqual({ ...made!.invitation, accountName: 'Acme' });
        expect(await accounts.findInvitation(`${made!.token}x`)).toBeUndefined();
        expect(await accounts.listInvitations(acme.id)).toEqual([made!.invitation]);

        // inviting the same email again replaces the invitation: the first token stops working
        const again = await accounts.createInvitation({
          accountId: acme.id,
          email: 'carol@example.com',
          role: 'viewer',
          invitedBy: null,
        });
        expect(await accounts.findInvitation(made!.token)).toBeUndefined();
        expect((await accounts.listInvitations(acme.id)).map((i) => [i.email, i.role])).toEqual([
          ['carol@example.com', 'viewer'],
        ]);

        // expired ones are not found and cannot be used
        const old = await accounts.createInvitation(
          { accountId: acme.id, email: 'late@example.com', role: 'viewer', invitedBy: null },
          { ttlMs: -1 },
        );
        expect(await accounts.findInvitation(old!.token)).toBeUndefined();
        expect(await accounts.acceptInvitationAsNewUser(old!.token, 'a good password')).toBeUndefined();
        expect(await accounts.findUserByEmail('late@example.com')).toBeUndefined();

        // withdrawn
        const dan = await accounts.createInvitation({
          accountId: acme.id,
          email: 'dan@example.com',
          role: 'viewer',
          invitedBy: null,
        });
        expect(await accounts.deleteInvitation('operator', dan!.invitation.id)).toBe(false);
        expect(await accounts.deleteInvitation(acme.id, dan!.invitation.id)).toBe(true);
        expect(await accounts.deleteInvitation(acme.id, dan!.invitation.id)).toBe(false);
        expect(await accounts.findInvitation(dan!.token)).toBeUndefined();

        // at most maxPending pending per account (a replacement of the same email still fits)
        const small = await accounts.createAccount({ name: 'Small', plan: 'core' });
        const invite = (email: string) =>
          accounts.createInvitation({ accountId: small.id, email, role: 'viewer', invitedBy: null }, { maxPending: 2 });
        expect(await invite('a@small.test')).toBeDefined();
        expect(await invite('b@small.test')).toBeDefined();
        expect(await invite('c@small.test')).toBeUndefined();
        expect(await invite('b@small.test')).toBeDefined();
        expect((await accounts.listInvitations(small.id)).map((i) => i.email).sort()).toEqual([
          'a@small.test',
          'b@small.test',
        ]);
        expect(again).toBeDefined();
      }),
    );

    it(
      'accepting: a new email becomes a user with their own password; an existing user only as themselves; once',
      withDb(async ({ accounts }) => {
        const acme = await accounts.createAccount({ name: 'Acme', plan: 'core' });
        const other = await accounts.createAccount({ name: 'Other', plan: 'core' });
        const invite = async (accountId: string, email: string, role: 'admin' | 'viewer' = 'viewer') =>
          (await accounts.createInvitation({ accountId, email, role, invitedBy: null }))!.token;

        // a new email: the invitee's password, the membership, in one go; the token works once
        const carolToken = await invite(acme.id, 'carol@example.com', 'admin');
        await expect(accounts.acceptInvitationAsNewUser(carolToken, 'too short')).rejects.toThrow(/at least 10/);
        expect(await accounts.findInvitation(carolToken)).toBeDefined();
        const [first, second] = await Promise.all([
          accounts.acceptInvitationAsNewUser(carolToken, 'carol password 1'),
          accounts.acceptInvitationAsNewUser(carolToken, 'carol password 2'),
        ]);
        const won = [first, second].filter((r) => typeof r === 'object');
        expect(won).toHaveLength(1);
        const carol = (won[0] as Exclude<typeof first, string | undefined>).user;
        expect(won[0]).toMatchObject({ accountId: acme.id, role: 'admin', user: { email: 'carol@example.com' } });
        expect([first, second].filter((r) => typeof r !== 'object')).toHaveLength(1);
        expect(await accounts.role(acme.id, carol.id)).toBe('admin');
        const signedIn = await Promise.all([
          accounts.verifyPassword('carol@example.com', 'carol password 1'),
          accounts.verifyPassword('carol@example.com', 'carol password 2'),
        ]);
        expect(signedIn.filter(Boolean).map((u) => u!.id)).toEqual([carol.id]);
        expect(await accounts.acceptInvitationAsNewUser(carolToken, 'carol password 3')).toBeUndefined();
        expect(await accounts.findInvitation(carolToken)).toBeUndefined();

        // an email that has a user: never a new user, never a password set; the invitation stays pending
        const otherToken = await invite(other.id, 'carol@example.com');
        expect(await accounts.acceptInvitationAsNewUser(otherToken, 'attacker password')).toBe('user-exists');
        expect(await accounts.verifyPassword('carol@example.com', 'attacker password')).toBeUndefined();
        expect(await accounts.findInvitation(otherToken)).toBeDefined();
        // ...and only that user can use it
        const mallory = await accounts.createUser({ email: 'mallory@example.com', password: 'mallory password' });
        expect(await accounts.acceptInvitation(otherToken, mallory.id)).toBeUndefined();
        expect(await accounts.role(other.id, mallory.id)).toBeUndefined();
        expect(await accounts.acceptInvitation(otherToken, carol.id)).toEqual({ accountId: other.id, role: 'viewer' });
        expect(await accounts.role(other.id, carol.id)).toBe('viewer');
        expect(await accounts.acceptInvitation(otherToken, carol.id)).toBeUndefined();

        // a member invited again keeps their role
        const again = await invite(acme.id, 'carol@example.com', 'viewer');
        expect(await accounts.acceptInvitation(again, carol.id)).toEqual({ accountId: acme.id, role: 'admin' });
        expect(await accounts.role(acme.id, carol.id)).toBe('admin');

        // two invitations of one new email accepted at once: one user, the other invitation untouched
        const [x, y] = [await invite(acme.id, 'erin@example.com'), await invite(other.id, 'erin@example.com')];
        const both = await Promise.all([
          accounts.acceptInvitationAsNewUser(x, 'erin password 1'),
          accounts.acceptInvitationAsNewUser(y, 'erin password 2'),
        ]);
        expect(both.filter((r) => typeof r === 'object')).toHaveLength(1);
        expect(both.filter((r) => r === 'user-exists')).toHaveLength(1);
        const loser = both[0] === 'user-exists' ? x : y;
        expect(await accounts.findInvitation(loser)).toBeDefined();
      }),
    );

    it(
      'admin tokens: stored hashed, verified by lookup, revocable',
      withDb(async ({ accounts, query }) => {
        const { token } = await accounts.createAdminToken('cli');
        expect(token).toMatch(/^[\w-]{43}$/);
        expect(JSON.stringify((await query('SELECT * FROM admin_tokens')).rows)).not.toContain(token);
        expect(await accounts.verifyAdminToken(token)).toEqual({ name: 'cli' });
        expect(await accounts.verifyAdminToken(token.slice(1))).toBeUndefined();
        expect(await accounts.revokeAdminToken(token)).toBe(true);
        expect(await accounts.verifyAdminToken(token)).toBeUndefined();
        expect(await accounts.revokeAdminToken(token)).toBe(false);
      }),
    );
  });
}
