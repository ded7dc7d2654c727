import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { createApiKey } from '../../keys/createApiKey.js';
import { until } from '../../test-support/until.js';
import { DatabaseUnavailableError } from '../DatabaseUnavailableError.js';
import { EMBEDDED_DB_FILE, openEmbeddedDatabase } from './openEmbeddedDatabase.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-deadline-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A statement SQLite takes a second or more over (a 10-million-row recursive count). */
const LONG = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000)
  SELECT count(*) AS n FROM c`;

it('a statement past its deadline: its caller gets a 503 at the deadline, the worker keeps its order and the database comes back', async () => {
  const db = await openEmbeddedDatabase(join(root, 'long'), { queryTimeoutMs: 300 });
  try {
    const { record } = await createApiKey(db.keys, { name: 'before' });
    const started = performance.now();
    const long = db.query(LONG).then(
      () => 'answered',
      (err: unknown) => err,
    );
    // asked after it: waits its turn in the worker, and its own deadline
    const behind = db.keys.find(record.key).then(
      () => 'answered',
      (err: unknown) => err,
    );
    const err = await long;
    const waited = performance.now() - started;
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as Error).message).toMatch(/within 300 ms/);
    expect(waited).toBeLessThan(1_500);
    expect(await behind).toBeInstanceOf(DatabaseUnavailableError);
    // the database counts as away (503 at once) until its probe answers, after the long statement
    expect(db.health.up()).toBe(false);
    await expect(db.keys.find(record.key)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await until(async () => db.health.up(), 'the database is up again', { tries: 300, everyMs: 100 });
    expect((await db.keys.find(record.key))?.name).toBe('before');
  } finally {
    await db.close();
  }
});

it('another process holding the write lock: a write waits the busy timeout, then 503 without taking the database down; reads go on', async () => {
  const dir = join(root, 'busy');
  const db = await openEmbeddedDatabase(dir, { queryTimeoutMs: 400 });
  const other = new DatabaseSync(join(dir, EMBEDDED_DB_FILE), { timeout: 0 });
  try {
    const { record } = await createApiKey(db.keys, { name: 'kept' });
    other.exec('BEGIN IMMEDIATE'); // the write lock, as a second process (the CLI) would take it
    const started = performance.now();
    await expect(createApiKey(db.keys, { name: 'blocked' })).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300); // the busy timeout: 80% of the deadline
    // reads do not wait for the writer (write-ahead log), and the database still counts as up
    expect((await db.keys.find(record.key))?.name).toBe('kept');
    expect(db.health.up()).toBe(true);
    other.exec('COMMIT');
    expect((await createApiKey(db.keys, { name: 'after' })).record.name).toBe('after');
  } finally {
    other.close();
    await db.close();
  }
});
