import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../store/Database.js';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import type { SqlConnection } from '../store/SqlConnection.js';
import { createSqlUsageStore, USAGE_ROWS_PER_WRITE } from './createSqlUsageStore.js';
import { openSqlUsageStore } from './openSqlUsageStore.js';
import { aggregate, usageEvent } from './usageStoreContract.js';
import { UsageWriteError } from './UsageWriteError.js';

const T0 = Date.UTC(2024, 5, 1);
const M = 60_000;

let db: Database;
beforeAll(async () => {
  db = await openEmbeddedDatabase(undefined);
  await openSqlUsageStore(db.sql); // the tables
});
afterAll(() => db.close());

/** The embedded database's connection, whose `n`th transaction fails as if the database went away. */
function failingAt(n: number): SqlConnection {
  let calls = 0;
  return {
    ...db.sql,
    transaction: (statements) =>
      ++calls === n ? Promise.reject(new Error('the database went away')) : db.sql.transaction(statements),
  };
}

it('writes a large flush part by part; an outage in the middle leaves exactly the rest unwritten, so nothing is lost or counted twice', async () => {
  const rows = 3 * USAGE_ROWS_PER_WRITE + 10;
  const batch = {
    aggregates: Array.from({ length: rows }, (_, i) => aggregate({ minute: T0 + (i % 60) * M, key: `k${i % 7}` })),
    errors: [],
    recent: Array.from({ length: 20 }, (_, i) => usageEvent({ key: 'k0', at: T0 + i })),
  };
  const scope = { from: T0, to: T0 + 60 * M };
  // the second part's transaction fails: the first part is stored, the rest comes back
  const store = createSqlUsageStore(failingAt(2));
  const err = await store.write(batch).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageWriteError);
  const unwritten = (err as UsageWriteError).unwritten;
  expect(unwritten.aggregates.length + unwritten.recent.length).toBe(rows + 20 - USAGE_ROWS_PER_WRITE);
  expect((await store.totals(scope)).requests).toBe(USAGE_ROWS_PER_WRITE);
  // written again (as the recorder does), every row counts once
  const whole = createSqlUsageStore(db.sql);
  expect(await whole.write(unwritten)).toEqual({ setAside: 0 });
  expect((await whole.totals(scope)).requests).toBe(rows);
  expect(await whole.recentRequests('k0', { limit: 100 })).toHaveLength(20);
});
