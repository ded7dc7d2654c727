import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createTcpProxy } from '../test-support/createTcpProxy.js';
import { openPostgresUsageStore } from './openPostgresUsageStore.js';

// Issue 20, item 10: statements of the PostgreSQL usage store have a deadline, so a flush or a
// usage query never waits on a stalled database (a silent connection) for longer.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `usage_outage_${randomBytes(6).toString('hex')}`;

afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

it('a stalled database fails a usage statement within queryTimeoutMs, and serves again once it is back', async () => {
  const proxy = await createTcpProxy(URL);
  const url = new globalThis.URL(URL);
  url.host = proxy.address;
  const store = await openPostgresUsageStore(url.toString(), { schema, queryTimeoutMs: 400, connectTimeoutMs: 300 });
  const scope = { key: '0'.repeat(32), from: Date.now() - 3_600_000, to: Date.now() };
  try {
    await store.totals(scope);
    proxy.stall();
    const started = performance.now();
    await expect(store.totals(scope)).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1_500);
    proxy.restore();
    await store.totals(scope);
  } finally {
    proxy.restore();
    await Promise.race([store.close(), new Promise((r) => setTimeout(r, 2_000))]);
    await proxy.close();
  }
});
