import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import { openSqlUsageStore } from './openSqlUsageStore.js';
import { aggregate } from './usageStoreContract.js';

const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const T0 = Date.UTC(2024, 0, 1);

it('shares the embedded database it does not own, applying its tables idempotently', async () => {
  const db = await openEmbeddedDatabase(undefined);
  try {
    const usage = await openSqlUsageStore(db.sql);
    await usage.write({ aggregates: [aggregate({ minute: T0, key: 'k1', requests: 3 })], errors: [], recent: [] });
    const again = await openSqlUsageStore(db.sql);
    expect((await again.totals({ key: 'k1', from: T0, to: T0 + 60_000 })).requests).toBe(3);
    await usage.close(); // leaves the connection open for its owner
    expect((await db.query<{ n: number }>('SELECT count(*) AS n FROM api_keys')).rows[0]?.n).toBe(0);
  } finally {
    await db.close();
  }
});

it('gateways starting together over one PostgreSQL schema do not race on the tables', async () => {
  const schema = `usage_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pools = [0, 1, 2].map(
    () => new pg.Pool({ connectionString: URL, max: 2, options: `-c search_path=${schema}` }),
  );
  try {
    const stores = await Promise.all(
      pools.map((pool) =>
        openSqlUsageStore(((sql: string, params?: unknown[]) => pool.query(sql, params)) as SqlQuery),
      ),
    );
    await Promise.all(
      stores.map((s) => s.write({ aggregates: [aggregate({ minute: T0, key: 'k1' })], errors: [], recent: [] })),
    );
    expect((await stores[0]!.totals({ from: T0, to: T0 + 60_000 })).requests).toBe(3);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
});
