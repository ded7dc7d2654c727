import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminBrowser, adminBrowser } from '../test-support/adminBrowser.js';
import { type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin } from '../test-support/testKeys.js';

// Issue 20, item 3: an owner of one account could take over a user before another account
// invited them: POST /accounts/A/members {"email":"colleague@b.test","role":"viewer",
// "password":"attacker-knows-this"}, delete the member, and when account B later added
// colleague@b.test the user already existed with the attacker's password, who signed in and
// created keys in B. The same call told whether an email was a user. Now members are invited,
// the invitee accepts with their own secret, and nobody sets another person's password.

let t: TestGateway;
let accountA: string;
let accountB: string;
let mallory: AdminBrowser; // owner of A, the attacker
let bob: AdminBrowser; // owner of B

/** The operator invites `email` into `accountId`; the invitee accepts with their own password. */
async function ownerOf(accountId: string, email: string, password: string): Promise<AdminBrowser> {
  const invitation = await admin(t.gw, 'POST', `/accounts/${accountId}/members`, { email, role: 'owner' });
  const browser = adminBrowser(t.gw.admin.url);
  expect((await browser.accept(invitation.token, password)).status).toBe(200);
  return browser;
}

beforeAll(async () => {
  t = await startTestGateway();
  accountA = (await admin(t.gw, 'POST', '/accounts', { name: 'A' })).id;
  accountB = (await admin(t.gw, 'POST', '/accounts', { name: 'B' })).id;
  mallory = await ownerOf(accountA, 'mallory@a.test', 'mallory password 1');
  bob = await ownerOf(accountB, 'bob@b.test', 'bob password 12');
});
afterAll(async () => {
  await t?.stop();
});

describe('nobody takes over another person’s user (issue 20, item 3)', () => {
  it('the reproduction: setting a password for a member is refused; no user exists for it; B’s later invitation stays the invitee’s', async () => {
    const attack = await mallory.call('POST', `/accounts/${accountA}/members`, {
      email: 'colleague@b.test',
      role: 'viewer',
      password: 'attacker-knows-this',
    });
    expect(attack.status).toBe(400);
    expect(attack.json.error).toMatchObject({ code: 'invalid_request', field: 'password' });
    expect(attack.json.error.message).toMatch(/nobody sets another person's password/);
    // no user was made with the attacker's password
    const attacker = adminBrowser(t.gw.admin.url);
    expect((await attacker.signIn({ email: 'colleague@b.test', password: 'attacker-knows-this' })).status).toBe(401);

    // B invites the colleague: the invitation is for a new user, who chooses the password
    const invitation = (
      await bob.call('POST', `/accounts/${accountB}/members`, { email: 'colleague@b.test', role: 'admin' })
    ).json;
    const lookup = await adminBrowser(t.gw.admin.url).call('POST', '/invitations/lookup', { token: invitation.token });
    expect(lookup.json).toMatchObject({
      accountName: 'B',
      email: 'colleague@b.test',
      role: 'admin',
      accept: 'new-password',
    });
    const colleague = adminBrowser(t.gw.admin.url);
    expect((await colleague.accept(invitation.token, 'the colleague’s own')).status).toBe(200);
    expect((await colleague.call('POST', `/accounts/${accountB}/keys`, { name: 'theirs' })).status).toBe(201);
    // the attacker's password opens nothing, and the used link cannot be used again
    expect((await attacker.signIn({ email: 'colleague@b.test', password: 'attacker-knows-this' })).status).toBe(401);
    const replay = await attacker.accept(invitation.token, 'attacker-knows-this');
    expect(replay.status).toBe(404);
    expect(replay.json.error.code).toBe('invalid_invitation');
    expect((await attacker.call('POST', `/accounts/${accountB}/keys`, { name: 'mine' })).status).toBe(401);
  });

  it('an invitation held by the inviter cannot set or get around an existing user’s password', async () => {
    // mallory invites bob (who has a user) into A and holds the link herself
    const invitation = (
      await mallory.call('POST', `/accounts/${accountA}/members`, { email: 'bob@b.test', role: 'viewer' })
    ).json;
    const holder = adminBrowser(t.gw.admin.url);
    expect((await holder.call('POST', '/invitations/lookup', { token: invitation.token })).json.accept).toBe(
      'password',
    );
    const tries = await holder.accept(invitation.token, 'a password mallory chose');
    expect(tries.status).toBe(401);
    expect(tries.json.error.field).toBe('password');
    expect((await holder.accept(invitation.token)).status).toBe(400);
    expect(holder.cookie).toBeUndefined();
    // bob's password is unchanged, and mallory's try left him out of A
    const bobAgain = adminBrowser(t.gw.admin.url);
    expect((await bobAgain.signIn({ email: 'bob@b.test', password: 'bob password 12' })).status).toBe(200);
    expect((await bobAgain.signIn({ email: 'bob@b.test', password: 'a password mallory chose' })).status).toBe(401);
    expect((await bob.call('GET', `/accounts/${accountA}`)).status).toBe(404);
    // bob himself accepts with his password: he joins A, and B is untouched for everyone else
    expect((await bobAgain.accept(invitation.token, 'bob password 12')).status).toBe(200);
    expect((await bob.call('GET', `/accounts/${accountA}`)).json.role).toBe('viewer');
    expect((await mallory.call('GET', `/accounts/${accountB}`)).status).toBe(404);
  });

  it('a user without a password (the operator) is never given one through an invitation', async () => {
    const invitation = (
      await mallory.call('POST', `/accounts/${accountA}/members`, { email: 'operator@localhost', role: 'viewer' })
    ).json;
    const holder = adminBrowser(t.gw.admin.url);
    expect((await holder.call('POST', '/invitations/lookup', { token: invitation.token })).json.accept).toBe('sign-in');
    const refused = await holder.accept(invitation.token, 'operator takeover 1');
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('sign_in_first');
    expect(holder.cookie).toBeUndefined();
    expect((await holder.signIn({ email: 'operator@localhost', password: 'operator takeover 1' })).status).toBe(401);
  });

  it('the invitation answer is the same whether or not the email is a user; it creates no user', async () => {
    const existing = await mallory.call('POST', `/accounts/${accountA}/members`, {
      email: 'colleague@b.test',
      role: 'viewer',
    });
    const fresh = await mallory.call('POST', `/accounts/${accountA}/members`, {
      email: 'nobody-yet@b.test',
      role: 'viewer',
    });
    expect([existing.status, fresh.status]).toEqual([201, 201]);
    expect(Object.keys(existing.json).sort()).toEqual(Object.keys(fresh.json).sort());
    const shape = (j: any) => ({
      ...j,
      id: 'x',
      email: 'x',
      token: 'x',
      inviteUrl: 'x',
      createdAt: 'x',
      expiresAt: 'x',
    });
    expect(shape(existing.json)).toEqual(shape(fresh.json));
    expect(fresh.json.inviteUrl).toBe(`${t.gw.url}/dashboard/invite#token=${fresh.json.token}`);
    // inviting made no user: the invitee of the fresh email is still asked to choose a password
    const lookup = await adminBrowser(t.gw.admin.url).call('POST', '/invitations/lookup', { token: fresh.json.token });
    expect(lookup.json.accept).toBe('new-password');
    // pending invitations are the owners' to see and withdraw; the withdrawn link stops working
    const pending = (await mallory.call('GET', `/accounts/${accountA}/invitations`)).json;
    expect(pending.map((i: any) => i.email)).toContain('nobody-yet@b.test');
    expect(JSON.stringify(pending)).not.toContain(fresh.json.token);
    // bob is a viewer of A since the test before: members who are not owners do not see them
    expect((await bob.call('GET', `/accounts/${accountA}/invitations`)).status).toBe(403);
    expect((await mallory.call('GET', `/accounts/${accountB}/invitations`)).status).toBe(404);
    expect((await mallory.call('DELETE', `/accounts/${accountA}/invitations/${fresh.json.id}`)).status).toBe(200);
    const gone = await adminBrowser(t.gw.admin.url).accept(fresh.json.token, 'a new password 1');
    expect(gone.status).toBe(404);
  });
});
