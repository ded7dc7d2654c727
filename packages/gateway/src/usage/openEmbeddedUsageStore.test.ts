import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, expect, it } from 'vitest';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import { openEmbeddedUsageStore } from './openEmbeddedUsageStore.js';
import { openSqlUsageStore } from './openSqlUsageStore.js';
import type { UsageStore } from './UsageStore.js';
import { aggregate, usageStoreContract } from './usageStoreContract.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-usage-'));
let n = 0;
afterAll(() => rm(root, { recursive: true, force: true }));

/** Usage over the gateway's embedded database, as the gateway keeps it; closing it closes the database. */
async function overDatabase(dir: string | undefined): Promise<UsageStore> {
  const db = await openEmbeddedDatabase(dir);
  const store = await openSqlUsageStore(db.sql);
  return { ...store, close: () => db.close() };
}

usageStoreContract(
  'embedded (SQLite)',
  () => overDatabase(undefined),
  async (setupSql) => {
    // what an earlier version left: PGlite in the data directory, holding older tables
    const dir = join(root, `db${n++}`);
    const legacy = new PGlite(dir);
    await legacy.exec(setupSql);
    await legacy.close();
    return overDatabase(dir);
  },
);

it('the embedded store keeps usage in its directory across reopening', async () => {
  const dir = join(root, `usage${n++}`);
  const minute = Date.UTC(2024, 0, 1);
  const first = await openEmbeddedUsageStore(dir);
  await first.write({ aggregates: [aggregate({ minute, key: 'k1', requests: 7 })], errors: [], recent: [] });
  await first.close();
  const again = await openEmbeddedUsageStore(dir);
  try {
    expect((await again.totals({ key: 'k1', from: minute, to: minute + 60_000 })).requests).toBe(7);
  } finally {
    await again.close();
  }
});
