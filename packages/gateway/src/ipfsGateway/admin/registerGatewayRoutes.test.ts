import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanTable } from '../../accounts/defaultPlanTable.js';
import { registerAdminApi } from '../../admin/registerAdminApi.js';
import type { Database } from '../../store/Database.js';
import { openEmbeddedDatabase } from '../../store/embedded/openEmbeddedDatabase.js';
import { DEFAULT_GATEWAY_SETTINGS } from '../config/IpfsGatewaySettings.js';
import { createSqlGatewayStore } from '../store/createSqlGatewayStore.js';

// The gateway routes of the admin API as tenants see them: a member reads its account's gateways,
// a viewer cannot change them, a stranger finds none of another account's (404, as for keys).

const API = '/admin/api/v1';
const PASSWORD = 'a long enough password';
let db: Database;
let app: FastifyInstance;
const forgotten: string[] = [];

interface Who {
  cookie: string;
  csrf: string;
}

async function session(email: string, accountId: string, role: 'owner' | 'viewer'): Promise<Who> {
  const user = await db.accounts.createUser({ email, password: PASSWORD });
  await db.accounts.addMember(accountId, user.id, role);
  const res = await app.inject({ method: 'POST', url: `${API}/sessions`, payload: { email, password: PASSWORD } });
  return {
    cookie: String(res.headers['set-cookie'] ?? '').split(';')[0]!,
    csrf: (res.json() as { csrfToken: string }).csrfToken,
  };
}

const call = (who: Who, method: string, url: string, body?: unknown) =>
  app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers: { cookie: who.cookie, 'x-csrf-token': who.csrf },
    ...(body === undefined ? {} : { payload: body as object }),
  });

let ownerA: Who;
let viewerA: Who;
let ownerB: Who;
let accountA: string;

beforeAll(async () => {
  db = await openEmbeddedDatabase(undefined);
  const store = await createSqlGatewayStore(db.sql);
  app = Fastify();
  await registerAdminApi(app, {
    keys: db.keys,
    accounts: db.accounts,
    plans: defaultPlanTable(),
    onKeyChanged: () => {},
    signInDelayMs: 10,
    gateways: {
      store,
      settings: { ...DEFAULT_GATEWAY_SETTINGS, domain: 'gw.example.org' },
      baseUrl: () => 'https://nodegate.example.org',
      bandwidthToday: async () => 1234,
      onGatewayChanged: (name) => forgotten.push(name),
    },
  });
  await app.ready();
  const a = await db.accounts.createAccount({ name: 'a', plan: 'core' });
  const b = await db.accounts.createAccount({ name: 'b', plan: 'developer' });
  accountA = a.id;
  ownerA = await session('owner-a@example.com', a.id, 'owner');
  viewerA = await session('viewer-a@example.com', a.id, 'viewer');
  ownerB = await session('owner-b@example.com', b.id, 'owner');
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('gateway routes of the admin API', () => {
  it("an owner creates its account's gateway: restricted, its URLs, the account's bandwidth and plan bound", async () => {
    const res = await call(ownerA, 'POST', `/accounts/${accountA}/gateways`, { name: 'app-a' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'app-a',
      mode: 'restricted',
      urls: {
        path: 'https://nodegate.example.org/ipfs-gateway/app-a',
        host: 'https://app-a.ipfs.gw.example.org',
        subdomain: 'https://{cid}.ipfs.app-a.ipfs.gw.example.org',
      },
      bandwidthToday: 1234,
      bandwidthPerDay: 10 * 1024 ** 3,
    });
    expect(forgotten).toContain('app-a');
  });

  it('a viewer reads but cannot change it; a stranger neither sees nor changes it (404)', async () => {
    const [mine] = (await call(viewerA, 'GET', `/accounts/${accountA}/gateways`)).json() as Array<{ id: string }>;
    expect(mine).toBeDefined();
    expect((await call(viewerA, 'PATCH', `/gateways/${mine!.id}`, { mode: 'open' })).statusCode).toBe(403);
    expect((await call(viewerA, 'POST', `/gateways/${mine!.id}/tokens`, { name: 'x' })).statusCode).toBe(403);
    expect((await call(ownerB, 'GET', `/gateways/${mine!.id}`)).statusCode).toBe(404);
    expect((await call(ownerB, 'PATCH', `/gateways/${mine!.id}`, { mode: 'open' })).statusCode).toBe(404);
    expect((await call(ownerB, 'DELETE', `/gateways/${mine!.id}`)).statusCode).toBe(404);
    expect((await call(ownerB, 'GET', `/gateways/${mine!.id}/tokens`)).statusCode).toBe(404);
    expect((await call(ownerB, 'GET', `/accounts/${accountA}/gateways`)).statusCode).toBe(404);
    expect((await call(ownerB, 'GET', '/gateways')).json()).toEqual([]);
  });

  it('refuses bad input, naming the field: a name that is no DNS label, an origin that is none, an unknown mode', async () => {
    const name = await call(ownerA, 'POST', `/accounts/${accountA}/gateways`, { name: 'No_Label' });
    expect(name.statusCode).toBe(400);
    expect(name.json().error.field).toBe('name');
    const origin = await call(ownerA, 'POST', `/accounts/${accountA}/gateways`, {
      name: 'app-b',
      allowedOrigins: ['not an origin'],
    });
    expect(origin.statusCode).toBe(400);
    expect(origin.json().error.field).toBe('allowedOrigins[0]');
    const mode = await call(ownerA, 'POST', `/accounts/${accountA}/gateways`, { name: 'app-c', mode: 'public' });
    expect(mode.statusCode).toBe(400);
  });
});
