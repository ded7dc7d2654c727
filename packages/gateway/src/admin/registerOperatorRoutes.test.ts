import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanTable } from '../accounts/defaultPlanTable.js';
import { ensureOperator } from '../accounts/ensureOperator.js';
import type { Database } from '../store/Database.js';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import type { AdminDeps } from './AdminDeps.js';
import { registerAdminApi } from './registerAdminApi.js';

// The operator's own way in (the CLI's routes) and the first-password rule, on the real admin API.

const API = '/admin/api/v1';
let db: Database;
let dir: string;
let token: string;
const apps: FastifyInstance[] = [];

async function build(extra: Partial<AdminDeps> = {}): Promise<FastifyInstance> {
  const app = Fastify();
  await registerAdminApi(app, {
    keys: db.keys,
    accounts: db.accounts,
    plans: defaultPlanTable(),
    onKeyChanged: () => {},
    signInDelayMs: 10,
    ...extra,
  });
  await app.ready();
  apps.push(app);
  return app;
}

interface Who {
  cookie?: string | undefined;
  csrf?: string | undefined;
  token?: string | undefined;
}
const call = (app: FastifyInstance, method: string, url: string, who: Who = {}, body?: unknown) =>
  app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers: {
      ...(who.cookie ? { cookie: who.cookie } : {}),
      ...(who.csrf ? { 'x-csrf-token': who.csrf } : {}),
      ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
    },
    ...(body === undefined ? {} : { payload: body as object }),
  });
const json = (res: LightMyRequestResponse) => res.json() as any;

async function signIn(app: FastifyInstance, body: Record<string, string>): Promise<Who & { status: number }> {
  const res = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: body });
  const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0];
  return { status: res.statusCode, cookie, csrf: res.statusCode === 200 ? json(res).csrfToken : undefined };
}
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-operator-'));
  db = await openEmbeddedDatabase(undefined);
  token = (await ensureOperator({ accounts: db.accounts, dataDir: dir, baseUrl: 'http://gw', signIn: false }))
    .adminToken;
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('admin API: the operator’s sign-in links and password (admin token only)', () => {
  it('a new one-time link, as many as asked, each signing the operator in once; at the public URL when there is one', async () => {
    const app = await build();
    const made = await call(app, 'POST', '/operator/sign-in-links', { token });
    expect(made.statusCode).toBe(201);
    const { url, expiresAt } = json(made);
    // no public URL: the address the request came to
    expect(url).toMatch(/^http:\/\/localhost:80\/dashboard\/sign-in\?token=[\w-]{43}$/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const second = json(await call(app, 'POST', '/operator/sign-in-links', { token })).url;
    expect(second).not.toBe(url);

    const op = await signIn(app, { signInToken: tokenOf(url) });
    expect(op.status).toBe(200);
    expect(json(await call(app, 'GET', '/sessions/current', op)).user).toMatchObject({
      email: 'operator@localhost',
      operator: true,
    });
    expect((await signIn(app, { signInToken: tokenOf(url) })).status).toBe(401);
    // the other link still works (once)
    expect((await signIn(app, { signInToken: tokenOf(second) })).status).toBe(200);

    const behindProxy = await build({ baseUrl: () => 'https://gw.example.org/' });
    expect(json(await call(behindProxy, 'POST', '/operator/sign-in-links', { token })).url).toMatch(
      /^https:\/\/gw\.example\.org\/dashboard\/sign-in\?token=/,
    );
  });

  it('a session cannot mint links or set the operator password, not even the operator’s; no credentials: 401', async () => {
    const app = await build();
    const link = json(await call(app, 'POST', '/operator/sign-in-links', { token })).url;
    const op = await signIn(app, { signInToken: tokenOf(link) });
    for (const [method, path, body] of [
      ['POST', '/operator/sign-in-links', undefined],
      ['PUT', '/operator/password', { newPassword: 'a session must not do this' }],
    ] as const) {
      const bySession = await call(app, method, path, op, body);
      expect(bySession.statusCode).toBe(403);
      expect(json(bySession).error.message).toContain('only the admin token');
      expect((await call(app, method, path, {}, body)).statusCode).toBe(401);
      expect((await call(app, method, path, { token: `${token}x` }, body)).statusCode).toBe(401);
    }
    const member = await db.accounts.createUser({ email: 'mia@acme.test', password: 'mia password 12' });
    const acme = await db.accounts.createAccount({ name: 'Acme', plan: 'core' });
    await db.accounts.addMember(acme.id, member.id, 'owner');
    const mia = await signIn(app, { email: 'mia@acme.test', password: 'mia password 12' });
    expect((await call(app, 'POST', '/operator/sign-in-links', mia)).statusCode).toBe(403);
  });

  it('the admin token sets the operator password without the current one and signs out every operator session', async () => {
    const app = await build();
    const link = json(await call(app, 'POST', '/operator/sign-in-links', { token })).url;
    const op = await signIn(app, { signInToken: tokenOf(link) });
    const short = await call(app, 'PUT', '/operator/password', { token }, { newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(json(short).error).toMatchObject({ code: 'invalid_request', field: 'newPassword' });
    expect(json(short).error.message).not.toContain('short');

    const set = await call(app, 'PUT', '/operator/password', { token }, { newPassword: 'the operator password 1' });
    expect(set.statusCode).toBe(200);
    expect(json(set).ok).toBe(true);
    expect(json(set).sessionsEnded).toBeGreaterThanOrEqual(1);
    expect((await call(app, 'GET', '/sessions/current', op)).statusCode).toBe(401);
    const byPassword = await signIn(app, { email: 'operator@localhost', password: 'the operator password 1' });
    expect(byPassword.status).toBe(200);
    // set again (a forgotten password): the old one stops working
    await call(app, 'PUT', '/operator/password', { token }, { newPassword: 'the operator password 2' });
    expect((await signIn(app, { email: 'operator@localhost', password: 'the operator password 1' })).status).toBe(401);
    expect((await signIn(app, { email: 'operator@localhost', password: 'the operator password 2' })).status).toBe(200);
  });
});

describe('admin API: a first password needs a fresh session', () => {
  it('within minutes of signing in it is set; an older session is refused (stale_session) and names the way back in', async () => {
    const user = await db.accounts.createUser({ email: 'nopass@acme.test' });
    const fresh = await build({ firstPasswordWithinMs: 60_000 });
    const s1 = await db.accounts.createSession(user.id);
    const who = { cookie: `nodegate_session=${s1.id}`, csrf: s1.csrfToken };
    const strict = await build({ firstPasswordWithinMs: 50 });
    await new Promise((r) => setTimeout(r, 120));
    const stale = await call(strict, 'PUT', '/users/me/password', who, { newPassword: 'first password 123' });
    expect(stale.statusCode).toBe(403);
    expect(json(stale).error.code).toBe('stale_session');
    expect(json(stale).error.message).toContain('nodegate admin sign-in-link');
    expect((await db.accounts.findUser(user.id))!.hasPassword).toBe(false);

    const ok = await call(fresh, 'PUT', '/users/me/password', who, { newPassword: 'first password 123' });
    expect(ok.statusCode).toBe(200);
    // once set, changing it needs the current one, however fresh the session
    const again = await call(fresh, 'PUT', '/users/me/password', who, { newPassword: 'second password 123' });
    expect(again.statusCode).toBe(400);
    expect(json(again).error.field).toBe('currentPassword');
    const changed = await call(fresh, 'PUT', '/users/me/password', who, {
      currentPassword: 'first password 123',
      newPassword: 'second password 123',
    });
    expect(changed.statusCode).toBe(200);
  });
});
