import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanTable } from '../accounts/defaultPlanTable.js';
import { ensureOperator } from '../accounts/ensureOperator.js';
import { createApiKey } from '../keys/createApiKey.js';
import type { Plan } from '../plans/Plan.js';
import type { Database } from '../store/Database.js';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import type { UsageQueries, UsageScope } from '../usage/UsageStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AddMemberBody, CreateKeyBody, PatchKeyBody, SignInBody } from './adminSchemas.js';
import { registerAdminApi } from './registerAdminApi.js';

const API = '/admin/api/v1';
const PASSWORD = 'a long enough password';
let db: Database;
let dir: string;
let operatorToken: string;
let signInUrl: string;
const changed: string[] = [];

const plans: Record<string, Plan> = {
  ...defaultPlanTable(),
  tiny: { name: 'tiny', creditsPerSecond: 10, creditsPerDay: 100, failoverProtection: false, maxKeys: 2 },
};

async function build(extra: Partial<AdminDeps> = {}): Promise<FastifyInstance> {
  const app = Fastify();
  // a route outside the admin API: it must not see the admin hooks
  app.post('/outside', async (req) => ({
    body: req.body ?? null,
    cookies: (req as { cookies?: unknown }).cookies ?? null,
  }));
  await registerAdminApi(app, {
    keys: db.keys,
    accounts: db.accounts,
    plans,
    onKeyChanged: (k) => changed.push(k),
    signInDelayMs: 20,
    ...extra,
  });
  await app.ready();
  return app;
}

interface Who {
  cookie?: string | undefined;
  csrf?: string | undefined;
  token?: string | undefined;
}
const headers = (who: Who | undefined, csrf = true) => ({
  ...(who?.cookie ? { cookie: who.cookie } : {}),
  ...(who?.csrf && csrf ? { 'x-csrf-token': who.csrf } : {}),
  ...(who?.token ? { authorization: `Bearer ${who.token}` } : {}),
});
const call = (app: FastifyInstance, method: string, url: string, who?: Who, body?: unknown) =>
  app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers: headers(who),
    ...(body === undefined ? {} : { payload: body as object }),
  });
const json = (res: LightMyRequestResponse) => res.json() as any;

async function signIn(
  app: FastifyInstance,
  body: Record<string, string>,
): Promise<Who & { res: LightMyRequestResponse }> {
  const res = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: body });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { res, cookie: setCookie.split(';')[0], csrf: res.statusCode === 200 ? json(res).csrfToken : undefined };
}

async function userWithRole(accountId: string, email: string, role: 'owner' | 'admin' | 'viewer') {
  const u = await db.accounts.createUser({ email, password: PASSWORD });
  await db.accounts.addMember(accountId, u.id, role);
  return u;
}

let app: FastifyInstance;
let acme: { id: string };
let other: { id: string };
let alice: Who; // owner of acme
let adam: Who; // admin of acme
let victor: Who; // viewer of acme
let bob: Who; // owner of other

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-admin-'));
  db = await openEmbeddedDatabase(undefined);
  const op = await ensureOperator({ accounts: db.accounts, dataDir: dir, baseUrl: 'http://gw' });
  operatorToken = op.adminToken;
  signInUrl = op.signInUrl!;
  app = await build();
  acme = await db.accounts.createAccount({ name: 'Acme', plan: 'core' });
  other = await db.accounts.createAccount({ name: 'Other', plan: 'core' });
  await userWithRole(acme.id, 'alice@acme.test', 'owner');
  await userWithRole(acme.id, 'adam@acme.test', 'admin');
  await userWithRole(acme.id, 'victor@acme.test', 'viewer');
  await userWithRole(other.id, 'bob@other.test', 'owner');
  const signed = await Promise.all(
    ['alice@acme.test', 'adam@acme.test', 'victor@acme.test', 'bob@other.test'].map((email) =>
      signIn(app, { email, password: PASSWORD }),
    ),
  );
  [alice, adam, victor, bob] = [signed[0]!, signed[1]!, signed[2]!, signed[3]!];
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('admin API: sessions', () => {
  it('signs the operator in with the one-time link: cookie attributes, CSRF token, accounts; the link works once', async () => {
    const token = new URL(signInUrl).searchParams.get('token')!;
    const op = await signIn(app, { signInToken: token });
    expect(op.res.statusCode).toBe(200);
    const cookie = String(op.res.headers['set-cookie']);
    expect(cookie).toMatch(/^nodegate_session=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    const body = json(op.res);
    expect(body.user).toMatchObject({ email: 'operator@localhost', operator: true, hasPassword: false });
    expect(body.operator).toBe(true);
    expect(body.csrfToken).toMatch(/^[\w-]{43}$/);
    expect(body.accounts.map((a: any) => a.name)).toEqual(['operator', 'Acme', 'Other']);
    expect(body.accounts[0].role).toBe('owner');
    expect(body.accounts[1].role).toBeNull();
    const again = await signIn(app, { signInToken: token });
    expect(again.res.statusCode).toBe(401);
    expect(json(again.res).error.message).toBe('the sign-in link is invalid, expired or already used');

    const current = await call(app, 'GET', '/sessions/current', op);
    expect(json(current).user.email).toBe('operator@localhost');
    expect(json(current).csrfToken).toBe(body.csrfToken);

    // set a first password without a current one, then sign in with it
    const pw = await call(app, 'PUT', '/users/me/password', op, { newPassword: 'operator password 1' });
    expect(pw.statusCode).toBe(200);
    const withPassword = await signIn(app, { email: 'OPERATOR@localhost', password: 'operator password 1' });
    expect(withPassword.res.statusCode).toBe(200);
    // now the current password is required and checked
    const missing = await call(app, 'PUT', '/users/me/password', withPassword, { newPassword: 'operator password 2' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing).error.field).toBe('currentPassword');
    const wrong = await call(app, 'PUT', '/users/me/password', withPassword, {
      currentPassword: 'not it at all',
      newPassword: 'operator password 2',
    });
    expect(wrong.statusCode).toBe(403);
    const short = await call(app, 'PUT', '/users/me/password', withPassword, {
      currentPassword: 'operator password 1',
      newPassword: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(json(short).error).toMatchObject({ code: 'invalid_request', field: 'newPassword' });
    expect(json(short).error.message).not.toContain('short');

    // sign out ends the session (and needs the CSRF token)
    expect((await call(app, 'DELETE', '/sessions/current', { cookie: withPassword.cookie })).statusCode).toBe(403);
    const out = await call(app, 'DELETE', '/sessions/current', withPassword);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^nodegate_session=;/);
    expect((await call(app, 'GET', '/sessions/current', withPassword)).statusCode).toBe(401);
  });

  it('a wrong password or unknown email answers 401 "wrong email or password" after the fixed delay', async () => {
    const slow = await build({ signInDelayMs: 200 });
    try {
      for (const body of [
        { email: 'alice@acme.test', password: 'not the password' },
        { email: 'nobody@acme.test', password: 'not the password' },
      ]) {
        const t0 = Date.now();
        const res = await slow.inject({ method: 'POST', url: `${API}/sessions`, payload: body });
        expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
        expect(res.statusCode).toBe(401);
        expect(json(res)).toEqual({ error: { code: 'unauthenticated', message: 'wrong email or password' } });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      const missing = await slow.inject({ method: 'POST', url: `${API}/sessions`, payload: { email: 'a@b' } });
      expect(json(missing).error).toMatchObject({ field: 'password' });
    } finally {
      await slow.close();
    }
  });

  it('too many failed sign-ins from one address answer 429', async () => {
    const limited = await build({ maxSignInFailures: 2 });
    try {
      const attempt = () =>
        limited.inject({
          method: 'POST',
          url: `${API}/sessions`,
          payload: { email: 'alice@acme.test', password: 'wrong password' },
        });
      expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(401);
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      // even the right password waits
      const right = await limited.inject({
        method: 'POST',
        url: `${API}/sessions`,
        payload: { email: 'alice@acme.test', password: PASSWORD },
      });
      expect(right.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('sets Secure on the cookie when the request came over https', async () => {
    const proxied = Fastify({ trustProxy: true });
    await registerAdminApi(proxied, { keys: db.keys, accounts: db.accounts, plans, onKeyChanged: () => {} });
    try {
      const res = await proxied.inject({
        method: 'POST',
        url: `${API}/sessions`,
        headers: { 'x-forwarded-proto': 'https' },
        payload: { email: 'alice@acme.test', password: PASSWORD },
      });
      expect(String(res.headers['set-cookie'])).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('admin API: authentication', () => {
  it('needs a session or an admin token; writes over a session need the CSRF token', async () => {
    expect((await call(app, 'GET', '/accounts')).statusCode).toBe(401);
    expect(json(await call(app, 'GET', '/accounts')).error.code).toBe('unauthenticated');
    expect((await call(app, 'GET', '/accounts', { cookie: 'nodegate_session=forged' })).statusCode).toBe(401);
    expect((await call(app, 'GET', '/accounts', { token: 'forged' })).statusCode).toBe(401);
    // an API key's secret is not an admin credential
    const { secret } = await createApiKey(db.keys, { accountId: acme.id, name: 'not admin' });
    expect((await call(app, 'GET', '/accounts', { token: secret })).statusCode).toBe(401);

    expect((await call(app, 'GET', `/accounts/${acme.id}/keys`, { cookie: alice.cookie })).statusCode).toBe(200);
    const noCsrf = await call(app, 'POST', `/accounts/${acme.id}/keys`, { cookie: alice.cookie }, { name: 'x' });
    expect(noCsrf.statusCode).toBe(403);
    expect(json(noCsrf).error.code).toBe('csrf');
    const wrongCsrf = await call(
      app,
      'POST',
      `/accounts/${acme.id}/keys`,
      { cookie: alice.cookie, csrf: bob.csrf },
      { name: 'x' },
    );
    expect(wrongCsrf.statusCode).toBe(403);
    expect((await call(app, 'POST', `/accounts/${acme.id}/keys`, alice, { name: 'x' })).statusCode).toBe(201);
    // the admin token needs no CSRF token
    expect(
      (await call(app, 'POST', `/accounts/${acme.id}/keys`, { token: operatorToken }, { name: 'y' })).statusCode,
    ).toBe(201);
  });

  it('leaves routes outside the admin API alone', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/outside',
      payload: { a: 1 },
      headers: { cookie: 'nodegate_session=x' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { a: 1 }, cookies: null });
    const unknown = await call(app, 'GET', '/nope', { token: operatorToken });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).error.code).toBe('not_found');
  });
  it('mounts like the gateway does: root hooks, not-found and error handlers set after it stay apart', async () => {
    const gw = Fastify();
    gw.addHook('onRequest', async (_req, reply) => {
      reply.header('access-control-allow-origin', '*');
    });
    await registerAdminApi(gw, { keys: db.keys, accounts: db.accounts, plans, onKeyChanged: () => {} });
    gw.setNotFoundHandler((_req, reply) => reply.code(404).send({ jsonrpc: '2.0', id: null, error: { code: -32004 } }));
    gw.setErrorHandler((_err, _req, reply) => reply.code(500).send({ root: true }));
    gw.post('/rpc', async (req) => req.body);
    try {
      const admin404 = await gw.inject({
        method: 'GET',
        url: `${API}/nothing`,
        headers: { authorization: `Bearer ${operatorToken}` },
      });
      expect(admin404.json()).toEqual({ error: { code: 'not_found', message: 'no such admin API route' } });
      expect((await gw.inject({ method: 'GET', url: '/nothing' })).json()).toMatchObject({ jsonrpc: '2.0' });
      const invalid = await gw.inject({
        method: 'POST',
        url: `${API}/accounts`,
        headers: { authorization: `Bearer ${operatorToken}` },
        payload: { name: 7 },
      });
      expect(invalid.json().error.field).toBe('name');
      expect((await gw.inject({ method: 'POST', url: '/rpc', payload: { x: 1 } })).json()).toEqual({ x: 1 });
      const listed = await gw.inject({
        method: 'GET',
        url: `${API}/plans`,
        headers: { authorization: `Bearer ${operatorToken}` },
      });
      expect(listed.statusCode).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('admin API: accounts, roles and tenant isolation', () => {
  it('lists only the caller’s accounts and hides other tenants (404)', async () => {
    expect(json(await call(app, 'GET', '/accounts', alice)).map((a: any) => [a.name, a.role])).toEqual([
      ['Acme', 'owner'],
    ]);
    expect(json(await call(app, 'GET', '/accounts', { token: operatorToken })).length).toBeGreaterThanOrEqual(3);
    const { record } = await createApiKey(db.keys, { accountId: other.id, name: 'bob key' });
    for (const [method, url, body] of [
      ['GET', `/accounts/${other.id}`],
      ['GET', `/accounts/${other.id}/keys`],
      ['POST', `/accounts/${other.id}/keys`, { name: 'sneaky' }],
      ['GET', `/accounts/${other.id}/members`],
      ['GET', `/accounts/${other.id}/plan`],
      ['GET', `/keys/${record.key}`],
      ['PATCH', `/keys/${record.key}`, { name: 'mine now' }],
      ['DELETE', `/keys/${record.key}`],
    ] as const) {
      const res = await call(app, method, url, alice, body);
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
    }
    expect(await db.keys.find(record.key)).toMatchObject({ name: 'bob key', revokedAt: null });
    const listed = json(await call(app, 'GET', '/keys', alice));
    expect(listed.every((k: any) => k.accountId === acme.id)).toBe(true);
    expect((await call(app, 'GET', `/keys?account=${other.id}`, alice)).statusCode).toBe(404);
  });

  it('a viewer reads but cannot create, change or revoke keys; an admin can', async () => {
    const created = json(await call(app, 'POST', `/accounts/${acme.id}/keys`, adam, { name: 'by admin' }));
    expect(created.secret).toMatch(/^[0-9a-f]{32}$/);
    expect((await call(app, 'GET', `/keys/${created.key}`, victor)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', `/accounts/${acme.id}/keys`, { name: 'by viewer' }],
      ['PATCH', `/keys/${created.key}`, { name: 'renamed' }],
      ['PATCH', `/keys/${created.key}`, { settings: { requireSecret: true } }],
      ['DELETE', `/keys/${created.key}`],
    ] as const) {
      const res = await call(app, method, url, victor, body);
      expect(res.statusCode).toBe(403);
      expect(json(res).error).toEqual({ code: 'forbidden', message: 'viewers cannot change keys' });
    }
    expect((await call(app, 'PATCH', `/accounts/${acme.id}`, victor, { name: 'x' })).statusCode).toBe(403);
    expect((await call(app, 'PATCH', `/keys/${created.key}`, adam, { name: 'renamed' })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/keys/${created.key}`, adam)).statusCode).toBe(200);
  });

  it('owners manage members; an account keeps one owner; the plan is the operator’s', async () => {
    expect(
      (await call(app, 'POST', `/accounts/${acme.id}/members`, adam, { email: 'x@acme.test', role: 'viewer' }))
        .statusCode,
    ).toBe(403);
    // an owner invites; the invitee accepts with a password of their own and is signed in
    const invited = await call(app, 'POST', `/accounts/${acme.id}/members`, alice, {
      email: 'Carol@Acme.test',
      role: 'admin',
    });
    expect(invited.statusCode).toBe(201);
    expect(json(invited)).toMatchObject({ email: 'carol@acme.test', role: 'admin', accountId: acme.id });
    expect(json(invited).inviteUrl).toBe(`http://localhost:80/dashboard/invite#token=${json(invited).token}`);
    const accepted = await app.inject({
      method: 'POST',
      url: `${API}/invitations/accept`,
      payload: { token: json(invited).token, password: 'carol password 1' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted).user).toMatchObject({ email: 'carol@acme.test', hasPassword: true });
    const carol = await signIn(app, { email: 'carol@acme.test', password: 'carol password 1' });
    expect(carol.res.statusCode).toBe(200);
    expect(
      (await call(app, 'POST', `/accounts/${acme.id}/members`, alice, { email: 'carol@acme.test', role: 'viewer' }))
        .statusCode,
    ).toBe(409);
    // an existing user joins another account without a password change: signed in, they accept with their session
    const joined = await call(app, 'POST', `/accounts/${other.id}/members`, bob, {
      email: 'carol@acme.test',
      role: 'viewer',
    });
    expect(joined.statusCode).toBe(201);
    const viaSession = await call(app, 'POST', '/invitations/accept', carol, { token: json(joined).token });
    expect(viaSession.statusCode).toBe(200);
    expect(json(await call(app, 'GET', '/accounts', carol)).map((a: any) => a.role)).toEqual(['admin', 'viewer']);

    const members = json(await call(app, 'GET', `/accounts/${acme.id}/members`, victor));
    const aliceId = members.find((m: any) => m.email === 'alice@acme.test').id;
    const carolId = json(accepted).user.id;
    const demote = await call(app, 'PATCH', `/accounts/${acme.id}/members/${aliceId}`, alice, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(json(demote).error.message).toBe('an account keeps at least one owner');
    expect((await call(app, 'DELETE', `/accounts/${acme.id}/members/${aliceId}`, alice)).statusCode).toBe(409);
    expect(
      json(await call(app, 'PATCH', `/accounts/${acme.id}/members/${carolId}`, alice, { role: 'viewer' })).role,
    ).toBe('viewer');
    expect((await call(app, 'DELETE', `/accounts/${acme.id}/members/${carolId}`, alice)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/accounts/${acme.id}/members/${carolId}`, alice)).statusCode).toBe(404);
    expect((await call(app, 'GET', `/accounts/${acme.id}`, carol)).statusCode).toBe(404);

    const renamed = await call(app, 'PATCH', `/accounts/${acme.id}`, alice, { name: 'Acme Corp' });
    expect(json(renamed)).toMatchObject({ name: 'Acme Corp', plan: 'core', role: 'owner' });
    const planByOwner = await call(app, 'PATCH', `/accounts/${acme.id}`, alice, { plan: 'team' });
    expect(planByOwner.statusCode).toBe(403);
    expect(json(planByOwner).error.field).toBe('plan');
    const badPlan = await call(app, 'PATCH', `/accounts/${acme.id}`, { token: operatorToken }, { plan: 'platinum' });
    expect(json(badPlan).error).toMatchObject({ field: 'plan', code: 'invalid_request' });
    expect(
      json(await call(app, 'PATCH', `/accounts/${acme.id}`, { token: operatorToken }, { plan: 'developer' })).plan,
    ).toBe('developer');
    await call(app, 'PATCH', `/accounts/${acme.id}`, { token: operatorToken }, { plan: 'core' });

    const created = await call(app, 'POST', '/accounts', { token: operatorToken }, { name: 'New Co', plan: 'team' });
    expect(created.statusCode).toBe(201);
    expect((await call(app, 'POST', '/accounts', alice, { name: 'Mine' })).statusCode).toBe(403);
  });
});

describe('admin API: keys', () => {
  it('creates a key (secret shown once), lists, patches settings partially, revokes; every change is announced', async () => {
    changed.length = 0;
    const res = await call(app, 'POST', `/accounts/${acme.id}/keys`, alice, { name: 'frontend' });
    expect(res.statusCode).toBe(201);
    const created = json(res);
    expect(created).toMatchObject({
      name: 'frontend',
      accountId: acme.id,
      plan: null,
      effectivePlan: 'core',
      dev: false,
      revokedAt: null,
      settings: { allowedOrigins: [], requireSecret: false, creditsPerDay: null },
    });
    expect(created.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(changed).toEqual([created.key]);

    const list = await call(app, 'GET', `/accounts/${acme.id}/keys`, victor);
    const shown = await call(app, 'GET', `/keys/${created.key}`, victor);
    for (const r of [list, shown]) {
      expect(r.body).not.toContain(created.secret);
      expect(r.body).not.toContain('secretHash');
      expect(r.body).not.toContain((await db.keys.find(created.key))!.secretHash);
    }
    expect(json(list).map((k: any) => k.key)).toContain(created.key);
    expect(json(shown)).toEqual((({ secret, ...rest }) => rest)(created));

    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const p1 = json(
      await call(app, 'PATCH', `/keys/${created.key}`, alice, {
        settings: {
          allowedOrigins: ['https://App.Example.com', '*.example.org', 'localhost:3000'],
          allowedContracts: ['0xABCDEF'],
          jwtKeys: [{ name: 'main', pem: ec }],
          requireJwt: true,
          creditsPerDay: 5000,
        },
      }),
    );
    expect(p1.settings).toMatchObject({
      allowedOrigins: ['https://app.example.com', '*.example.org', 'localhost:3000'],
      allowedContracts: ['0xabcdef'],
      requireJwt: true,
      creditsPerDay: 5000,
      allowedMethods: [],
    });
    expect(p1.settings.jwtKeys[0].name).toBe('main');
    const p2 = json(
      await call(app, 'PATCH', `/keys/${created.key}`, alice, {
        name: 'web',
        settings: { allowedMethods: ['eth_call'] },
      }),
    );
    expect(p2).toMatchObject({ name: 'web', settings: { ...p1.settings, allowedMethods: ['eth_call'] } });
    const cleared = json(
      await call(app, 'PATCH', `/keys/${created.key}`, alice, {
        settings: { allowedOrigins: [], creditsPerDay: null },
      }),
    );
    expect(cleared.settings).toMatchObject({ allowedOrigins: [], creditsPerDay: null, allowedMethods: ['eth_call'] });
    expect((await db.keys.find(created.key))!.settings.allowedMethods).toEqual(['eth_call']);
    // requireJwt needs a JWT key
    const noJwt = await call(app, 'PATCH', `/keys/${created.key}`, alice, { settings: { jwtKeys: [] } });
    expect(json(noJwt).error).toMatchObject({ field: 'settings.requireJwt' });

    // a plan override is the operator's
    const byOwner = await call(app, 'PATCH', `/keys/${created.key}`, alice, { plan: 'team' });
    expect(byOwner.statusCode).toBe(403);
    expect((await call(app, 'POST', `/accounts/${acme.id}/keys`, alice, { name: 'p', plan: 'team' })).statusCode).toBe(
      403,
    );
    const byOperator = json(
      await call(app, 'PATCH', `/keys/${created.key}`, { token: operatorToken }, { plan: 'team' }),
    );
    expect(byOperator).toMatchObject({ plan: 'team', effectivePlan: 'team' });
    expect(
      json(await call(app, 'PATCH', `/keys/${created.key}`, { token: operatorToken }, { plan: null })).plan,
    ).toBeNull();

    changed.length = 0;
    const revoked = await call(app, 'DELETE', `/keys/${created.key}`, alice);
    expect(revoked.statusCode).toBe(200);
    expect(json(revoked).revokedAt).not.toBeNull();
    expect(changed).toEqual([created.key]);
    expect((await call(app, 'DELETE', `/keys/${created.key}`, alice)).statusCode).toBe(409);
    expect((await call(app, 'PATCH', `/keys/${created.key}`, alice, { name: 'zombie' })).statusCode).toBe(409);
    expect((await call(app, 'GET', `/keys/${'0'.repeat(32)}`, alice)).statusCode).toBe(404);
    expect(json(await call(app, 'GET', '/keys/not-a-key', alice)).error.code).toBe('invalid_request');
  });

  it("refuses a new key at the plan's maxKeys active keys", async () => {
    const small = await db.accounts.createAccount({ name: 'Small', plan: 'tiny' });
    const op = { token: operatorToken };
    const a = json(await call(app, 'POST', `/accounts/${small.id}/keys`, op, { name: 'a' }));
    await call(app, 'POST', `/accounts/${small.id}/keys`, op, { name: 'b' });
    const third = await call(app, 'POST', `/accounts/${small.id}/keys`, op, { name: 'c' });
    expect(third.statusCode).toBe(403);
    expect(json(third).error).toEqual({
      code: 'key_limit',
      message: 'the tiny plan allows 2 active keys; revoke one first',
    });
    await call(app, 'DELETE', `/keys/${a.key}`, op);
    expect((await call(app, 'POST', `/accounts/${small.id}/keys`, op, { name: 'c' })).statusCode).toBe(201);
    const plan = json(await call(app, 'GET', `/accounts/${small.id}/plan`, op));
    expect(plan).toMatchObject({ plan: { name: 'tiny', maxKeys: 2 }, activeKeys: 2, usedToday: null });
  });

  it('names the field in validation errors', async () => {
    const { key } = json(await call(app, 'POST', `/accounts/${acme.id}/keys`, alice, { name: 'v' }));
    const problem = async (body: unknown, url = `/keys/${key}`, method = 'PATCH') => {
      const res = await call(app, method, url, alice, body);
      expect(res.statusCode).toBe(400);
      return json(res).error as { code: string; field: string; message: string };
    };
    expect(
      await problem({
        settings: { allowedOrigins: ['https://a.example.com', 'b.example.com', 'https://c.example.com/path'] },
      }),
    ).toEqual({
      code: 'invalid_request',
      field: 'settings.allowedOrigins[2]',
      message: 'settings.allowedOrigins[2]: expected an origin like https://app.example.com or *.example.com',
    });
    const many = Array.from({ length: 31 }, (_, i) => `h${i}.example.com`);
    expect((await problem({ settings: { allowedOrigins: many } })).field).toBe('settings.allowedOrigins');
    expect((await problem({ settings: { allowedContracts: ['0x12', 'abc'] } })).field).toBe(
      'settings.allowedContracts[1]',
    );
    expect((await problem({ settings: { allowedMethods: ['eth call'] } })).field).toBe('settings.allowedMethods[0]');
    expect((await problem({ settings: { allowedUserAgents: [''] } })).field).toBe('settings.allowedUserAgents[0]');
    expect((await problem({ settings: { creditsPerDay: 0 } })).field).toBe('settings.creditsPerDay');
    expect((await problem({ settings: { creditsPerSecond: 1.5 } })).field).toBe('settings.creditsPerSecond');
    expect((await problem({ settings: { requireSecret: 'yes' } })).field).toBe('settings.requireSecret');
    expect((await problem({ settings: { colour: 'red' } })).field).toBe('settings.colour');
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const rsa = await problem({ settings: { jwtKeys: [{ name: 'old', pem: weak }] } });
    expect(rsa).toMatchObject({
      field: 'settings.jwtKeys[0].pem',
      message: 'settings.jwtKeys[0].pem: RSA keys need at least 2048 bits',
    });
    expect((await problem({ settings: { jwtKeys: [{ name: 'x', pem: 'not a pem' }] } })).field).toBe(
      'settings.jwtKeys[0].pem',
    );
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect((await problem({ settings: { jwtKeys: [{ name: 'x', pem: ed }] } })).message).toContain(
      'RSA (RS256) or EC P-256 (ES256)',
    );
    const ec = () =>
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(
      (
        await problem({
          settings: {
            jwtKeys: [
              { name: 'k', pem: ec() },
              { name: 'k', pem: ec() },
            ],
          },
        })
      ).field,
    ).toBe('settings.jwtKeys[1].name');
    expect(
      (await problem({ settings: { jwtKeys: ['a', 'b', 'c', 'd'].map((name) => ({ name, pem: ec() })) } })).field,
    ).toBe('settings.jwtKeys');
    const priv = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const leaked = await problem({ settings: { jwtKeys: [{ name: 'p', pem: priv }] } });
    expect(leaked.message).toContain('not a private key');
    expect(leaked.message).not.toContain('BEGIN');
    expect((await problem({ name: 42 })).field).toBe('name');
    expect((await problem({ nickname: 'x' })).field).toBe('nickname');
    expect((await problem({ email: 'dan@acme.test' }, `/accounts/${acme.id}/members`, 'POST')).field).toBe('role');
    expect(
      (await problem({ email: 'not-an-email', role: 'viewer' }, `/accounts/${acme.id}/members`, 'POST')).field,
    ).toBe('email');
    expect(
      (await problem({ email: 'dan@acme.test', role: 'boss' }, `/accounts/${acme.id}/members`, 'POST')).field,
    ).toBe('role');
    // nobody sets another person's password: the field is refused with the reason, whatever its value
    for (const password of ['short', 'a long enough password']) {
      const refused = await problem(
        { email: 'dan@acme.test', role: 'viewer', password },
        `/accounts/${acme.id}/members`,
        'POST',
      );
      expect(refused.field).toBe('password');
      expect(refused.message).toMatch(/nobody sets another person's password/);
    }
    expect((await problem({}, `/accounts/${acme.id}/keys`, 'POST')).field).toBe('name');
  });
});

describe('admin API: plans and usage', () => {
  it('lists plans; usage routes answer 404 without a usage store', async () => {
    const listed = json(await call(app, 'GET', '/plans', victor));
    expect(listed.find((p: any) => p.name === 'core')).toEqual({ name: 'core', ...plans.core });
    expect((await call(app, 'GET', `/usage?account=${acme.id}`, alice)).statusCode).toBe(404);
  });

  it('serves usage to members of the account only; the operator sees everything', async () => {
    const seen: Array<UsageScope | string> = [];
    const totals = { requests: 3, credits: 30, errors: 1, latencyMsAvg: 2, latencyMsMax: 5, bytesIn: 10, bytesOut: 20 };
    // an in-memory UsageQueries (the SQL one has its own contract suite): it records the scopes asked for
    const usage: UsageQueries = {
      series: async (scope, bucket) => {
        seen.push(scope, bucket);
        return [{ at: new Date(scope.from).toISOString(), ...totals }];
      },
      totals: async () => totals,
      topMethods: async (scope, limit) => {
        seen.push(scope, `limit ${limit}`);
        return [{ method: 'eth_call', network: 'eth-devnet', ...totals }];
      },
      errorsByStatus: async () => [{ status: 429, errorCode: -32005, count: 1 }],
      recentRequests: async (key, o) => {
        seen.push(`${key} ${o.limit} ${o.method} ${o.status}`);
        return [];
      },
    };
    const used = new Map<string, number>();
    const withUsage = await build({ usage, usedToday: async (k) => used.get(k) ?? 0 });
    try {
      const mine = await createApiKey(db.keys, { accountId: acme.id, name: 'u' });
      const theirs = await createApiKey(db.keys, { accountId: other.id, name: 'u' });
      used.set(mine.record.key, 40);
      const r = await call(withUsage, 'GET', `/usage?key=${mine.record.key}&from=1000&to=2000&bucket=1m`, victor);
      expect(r.statusCode).toBe(200);
      expect(json(r)).toMatchObject({
        bucket: '1m',
        totals,
        series: [{ at: new Date(1000).toISOString(), requests: 3 }],
      });
      expect(seen.slice(0, 2)).toEqual([{ key: mine.record.key, from: 1000, to: 2000 }, '1m']);
      expect((await call(withUsage, 'GET', `/usage?key=${theirs.record.key}`, victor)).statusCode).toBe(404);
      expect((await call(withUsage, 'GET', `/usage?account=${other.id}`, victor)).statusCode).toBe(404);
      expect((await call(withUsage, 'GET', '/usage', victor)).statusCode).toBe(400);
      expect((await call(withUsage, 'GET', '/usage?from=yesterday', alice)).statusCode).toBe(400);
      expect((await call(withUsage, 'GET', '/usage', { token: operatorToken })).statusCode).toBe(200);
      const top = await call(withUsage, 'GET', `/usage/top-methods?account=${acme.id}&limit=5`, victor);
      expect(json(top)[0].method).toBe('eth_call');
      expect(seen.at(-1)).toBe('limit 5');
      expect(json(await call(withUsage, 'GET', `/usage/errors?account=${acme.id}`, victor))).toEqual([
        { status: 429, errorCode: -32005, count: 1 },
      ]);
      expect(
        (await call(withUsage, 'GET', `/keys/${mine.record.key}/requests?limit=20&method=eth_call&status=429`, victor))
          .statusCode,
      ).toBe(200);
      expect(seen.at(-1)).toBe(`${mine.record.key} 20 eth_call 429`);
      expect(
        json(await call(withUsage, 'GET', `/keys/${mine.record.key}/requests?limit=501`, victor)).error.field,
      ).toBe('limit');
      expect((await call(withUsage, 'GET', `/keys/${theirs.record.key}/requests`, victor)).statusCode).toBe(404);
      const plan = json(await call(withUsage, 'GET', `/accounts/${acme.id}/plan`, victor));
      expect(plan.plan.name).toBe('core');
      expect(plan.usedToday).toBe(40);
    } finally {
      await withUsage.close();
    }
  });
});

describe('admin API: OpenAPI', () => {
  it('publishes every route, with the request schemas the routes validate', async () => {
    const res = await app.inject({ method: 'GET', url: `${API}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as any;
    expect(doc.openapi).toBe('3.0.3');
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) =>
      Object.keys(m).map((verb) => `${verb.toUpperCase()} ${p.slice(API.length)}`),
    );
    expect(ops.sort()).toEqual(
      [
        'POST /sessions',
        'GET /sessions/current',
        'DELETE /sessions/current',
        'PUT /users/me/password',
        'POST /operator/sign-in-links',
        'PUT /operator/password',
        'GET /accounts',
        'POST /accounts',
        'GET /accounts/{id}',
        'PATCH /accounts/{id}',
        'GET /accounts/{id}/members',
        'POST /accounts/{id}/members',
        'PATCH /accounts/{id}/members/{userId}',
        'DELETE /accounts/{id}/members/{userId}',
        'GET /accounts/{id}/invitations',
        'DELETE /accounts/{id}/invitations/{invitationId}',
        'POST /invitations/lookup',
        'POST /invitations/accept',
        'GET /accounts/{id}/plan',
        'GET /plans',
        'GET /keys',
        'GET /accounts/{id}/keys',
        'POST /accounts/{id}/keys',
        'GET /keys/{key}',
        'PATCH /keys/{key}',
        'DELETE /keys/{key}',
        'GET /usage',
        'GET /usage/top-methods',
        'GET /usage/errors',
        'GET /keys/{key}/requests',
        'GET /keys/{key}/requests/{requestId}',
        'GET /keys/{key}/storage',
        'GET /accounts/{id}/storage',
        'GET /restrictions',
      ].sort(),
    );
    const bodyOf = (path: string, verb: string) =>
      doc.paths[`${API}${path}`][verb].requestBody.content['application/json'].schema;
    for (const [path, verb, schema] of [
      ['/sessions', 'post', SignInBody],
      ['/accounts/{id}/keys', 'post', CreateKeyBody],
      ['/keys/{key}', 'patch', PatchKeyBody],
      ['/accounts/{id}/members', 'post', AddMemberBody],
    ] as const) {
      const published = bodyOf(path, verb);
      expect(Object.keys(published.properties).sort()).toEqual(Object.keys(schema.properties).sort());
      expect(published.required ?? []).toEqual((schema as { required?: string[] }).required ?? []);
      expect(published.additionalProperties).toBe(false);
    }
    expect(bodyOf('/keys/{key}', 'patch').properties.settings.properties.allowedOrigins.maxItems).toBe(30);
    // what the document publishes is what the routes enforce: every body refuses unknown properties
    const { key } = json(await call(app, 'POST', `/accounts/${acme.id}/keys`, alice, { name: 'o' }));
    for (const [p, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [verb, op] of Object.entries(methods)) {
        if (!op.requestBody) continue;
        const url = p
          .slice(API.length)
          .replace('{id}', acme.id)
          .replace('{key}', key)
          .replace('{userId}', 'u')
          .replace('{invitationId}', 'i');
        const r = await call(app, verb.toUpperCase(), url, { token: operatorToken }, { unexpected: 1 });
        const required: string[] = op.requestBody.content['application/json'].schema.required ?? [];
        expect([verb, p, r.statusCode]).toEqual([verb, p, 400]);
        expect(['unexpected', ...required]).toContain(json(r).error.field);
      }
    }
  });
});
