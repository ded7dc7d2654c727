import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll } from 'vitest';
import { accountStoreContract } from '../../accounts/accountStoreContract.js';
import { keyStoreContract } from '../keyStoreContract.js';
import { openEmbeddedDatabase } from './openEmbeddedDatabase.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-db-'));
let n = 0;
let current = '';
afterAll(() => rm(root, { recursive: true, force: true }));

// The embedded database: SQLite in a worker thread. "Storage set up by earlier SQL" is what an
// earlier version left: a PGlite data directory (the SQL run there), migrated at the first open.
keyStoreContract(
  'embedded (SQLite)',
  () => {
    current = join(root, `db${n++}`);
    return openEmbeddedDatabase(current);
  },
  () => openEmbeddedDatabase(current),
  async (setupSql) => {
    const dir = join(root, `db${n++}`);
    const legacy = new PGlite(dir);
    await legacy.exec(setupSql);
    await legacy.close();
    return openEmbeddedDatabase(dir);
  },
);

accountStoreContract('embedded (SQLite, in memory)', () => openEmbeddedDatabase(undefined));
