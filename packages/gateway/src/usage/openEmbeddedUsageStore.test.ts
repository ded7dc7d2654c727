import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, it } from 'vitest';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { openEmbeddedUsageStore } from './openEmbeddedUsageStore.js';
import { openSqlUsageStore } from './openSqlUsageStore.js';
import { aggregate, usageStoreContract } from './usageStoreContract.js';

usageStoreContract(
  'embedded (PGlite, in memory)',
  () => openEmbeddedUsageStore(undefined),
  async (setupSql) => {
    // the same tables over a database that already holds older ones
    const db = new PGlite();
    await db.exec(setupSql);
    const store = await openSqlUsageStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery);
    return { ...store, close: () => db.close() };
  },
);

it('the embedded store keeps usage in its directory across reopening', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-usage-'));
  try {
    const minute = Date.UTC(2024, 0, 1);
    const first = await openEmbeddedUsageStore(join(dir, 'usage'));
    await first.write({ aggregates: [aggregate({ minute, key: 'k1', requests: 7 })], errors: [], recent: [] });
    await first.close();
    const again = await openEmbeddedUsageStore(join(dir, 'usage'));
    try {
      expect((await again.totals({ key: 'k1', from: minute, to: minute + 60_000 })).requests).toBe(7);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
