import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKeyAuthenticator } from '../../keys/createKeyAuthenticator.js';
import { DEFAULT_PLANS } from '../../plans/Plan.js';
import { createTcpProxy, type TcpProxy } from '../../test-support/createTcpProxy.js';
import { until } from '../../test-support/until.js';
import { DatabaseUnavailableError } from '../DatabaseUnavailableError.js';
import type { Database } from '../Database.js';
import { OPERATOR_ACCOUNT_ID } from '../sql.js';
import { openPostgresDatabase } from './openPostgresDatabase.js';

// The PostgreSQL server CI starts (scripts/services.sh), reached through a proxy the test stalls and cuts.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `nodegate_outage_${randomBytes(6).toString('hex')}`;
const timeouts = { queryTimeoutMs: 400, connectTimeoutMs: 300 };
const cleanups: Array<() => Promise<unknown> | unknown> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

async function through(): Promise<{ proxy: TcpProxy; db: Database; lines: string[] }> {
  const proxy = await createTcpProxy(URL);
  cleanups.push(() => proxy.close());
  const u = new globalThis.URL(URL);
  u.host = proxy.address;
  const lines: string[] = [];
  const log = { error: () => {}, info: () => {}, warn: (msg: string) => lines.push(msg) };
  const db = await openPostgresDatabase(u.toString(), { schema, ...timeouts, log });
  cleanups.push(() => db.close());
  return { proxy, db, lines };
}

async function settled(call: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await call();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

const newKey = (db: Database) =>
  db.keys.insert({
    key: randomBytes(16).toString('hex'),
    secretHash: '0'.repeat(64),
    name: 'outage',
    accountId: OPERATOR_ACCOUNT_ID,
    plan: null,
    dev: false,
  });

describe('PostgreSQL away: every statement has a deadline', () => {
  it('a stalled database fails statements after queryTimeoutMs with a 503, then at once; back when it answers again', async () => {
    const { proxy, db, lines } = await through();
    await db.keys.list();
    proxy.stall();
    const first = await Promise.all([
      settled(() => db.keys.find('0'.repeat(32))),
      settled(() => db.accounts.verifyAdminToken('whatever')),
    ]);
    for (const r of first) {
      expect(r.error).toBeInstanceOf(DatabaseUnavailableError);
      expect((r.error as DatabaseUnavailableError).httpStatus).toBe(503);
      expect(r.ms).toBeLessThan(timeouts.queryTimeoutMs + 400);
    }
    expect(db.health.up()).toBe(false);
    // known to be away: the next statement does not wait at all
    const next = await settled(() => db.keys.list());
    expect(next.error).toBeInstanceOf(DatabaseUnavailableError);
    expect(next.ms).toBeLessThan(50);
    proxy.restore();
    await until(async () => db.health.up(), 'the database to answer again');
    expect((await db.keys.list()).length).toBeGreaterThanOrEqual(0);
    expect(lines).toEqual(['database unavailable', 'database available again']);
  });

  it('a cut database (connections reset, new ones closed) fails statements fast with a 503', async () => {
    const { proxy, db } = await through();
    await db.keys.list();
    proxy.cut();
    const r = await settled(() => db.keys.list());
    expect(r.error).toBeInstanceOf(DatabaseUnavailableError);
    expect(r.ms).toBeLessThan(timeouts.queryTimeoutMs + 400);
    proxy.restore();
    await until(async () => db.health.up(), 'the database to answer again');
    await db.keys.list();
  });
});

describe('createKeyAuthenticator while the database is away', () => {
  it('serves keys it has seen with their last known state; an unknown key gets the 503 at once', async () => {
    const { proxy, db } = await through();
    const active = await newKey(db);
    const revoked = await newKey(db);
    await db.keys.revoke(revoked.key);
    const unknown = randomBytes(16).toString('hex');
    // entries expire at once, so every authenticate reads the database again
    const plans = Object.fromEntries(Object.entries(DEFAULT_PLANS).map(([name, p]) => [name, { name, ...p }]));
    const auth = createKeyAuthenticator(db.keys, plans, { hitTtlMs: 0, missTtlMs: 0 });
    expect((await auth.authenticate(active.key))?.record.key).toBe(active.key);
    expect(await auth.authenticate(revoked.key)).toBeUndefined();

    proxy.stall();
    const during = await settled(() => auth.authenticate(active.key));
    expect(during.error).toBeUndefined();
    expect(during.ms).toBeLessThan(timeouts.queryTimeoutMs + 400);
    expect((await auth.authenticate(active.key))?.record.key).toBe(active.key);
    expect(await auth.authenticate(revoked.key)).toBeUndefined();
    const stranger = await settled(() => auth.authenticate(unknown));
    expect(stranger.error).toBeInstanceOf(DatabaseUnavailableError);
    expect(stranger.ms).toBeLessThan(50);
    // every key to be read again (missed key-change notices): still the last known states
    auth.forgetAll();
    expect((await auth.authenticate(active.key))?.record.key).toBe(active.key);
    // a key changed here is never answered from before the change
    auth.forget(active.key);
    await expect(auth.authenticate(active.key)).rejects.toBeInstanceOf(DatabaseUnavailableError);

    proxy.restore();
    await until(async () => db.health.up(), 'the database to answer again');
    expect((await auth.authenticate(active.key))?.record.key).toBe(active.key);
    expect(await auth.authenticate(unknown)).toBeUndefined();
  });
});
