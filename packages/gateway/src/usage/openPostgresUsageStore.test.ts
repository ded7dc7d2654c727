import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openPostgresUsageStore } from './openPostgresUsageStore.js';
import { usageEvent, usageStoreContract } from './usageStoreContract.js';

// The PostgreSQL server CI starts (scripts/services.sh); each store gets its own schema.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
const freshSchema = () => {
  const schema = `usage_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
};

afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await client.end();
});

usageStoreContract(
  'PostgreSQL',
  () => openPostgresUsageStore(URL, { schema: freshSchema() }),
  async (setupSql) => {
    // older tables in a schema of their own, then the current store opened over them
    const schema = freshSchema();
    const client = new pg.Client({ connectionString: URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${setupSql}`);
    } finally {
      await client.end();
    }
    return openPostgresUsageStore(URL, { schema });
  },
);

it('opening the same schema twice at once is fine (two gateways starting)', async () => {
  const schema = freshSchema();
  const stores = await Promise.all([0, 1, 2].map(() => openPostgresUsageStore(URL, { schema })));
  await Promise.all(stores.map((s) => s.close()));
});

it('rejects an invalid schema name', async () => {
  await expect(openPostgresUsageStore(URL, { schema: 'x; DROP TABLE y' })).rejects.toThrow(/invalid schema/);
});

it('gateways flushing the same key at once never deadlock on trimming its recent requests', async () => {
  // Several instances serve one key: each flush appends its requests to the log and trims the
  // key's oldest. Two trims deleting the same rows in different orders deadlocked (PostgreSQL
  // aborts one after a second); a trim now skips rows another trim holds.
  const schema = freshSchema();
  const [a, b] = await Promise.all([0, 1].map(() => openPostgresUsageStore(URL, { schema })));
  const keep = 200;
  let at = Date.UTC(2024, 0, 1);
  const flush = (store: typeof a, n: number) =>
    store!.write({
      aggregates: [],
      errors: [],
      recent: Array.from({ length: n }, () => usageEvent({ key: 'shared', at: at++ })),
      keepRecentPerKey: keep,
    });
  try {
    for (let round = 0; round < 30; round++)
      await Promise.all([flush(a, 400), flush(b, 400), flush(a, 400), flush(b, 400)]);
    await flush(a, 1);
    const client = new pg.Client({ connectionString: URL });
    await client.connect();
    try {
      const r = await client.query(`SELECT count(*)::int AS n FROM ${schema}.usage_recent WHERE key = 'shared'`);
      expect(r.rows[0].n).toBe(keep);
    } finally {
      await client.end();
    }
  } finally {
    await Promise.all([a!.close(), b!.close()]);
  }
});
