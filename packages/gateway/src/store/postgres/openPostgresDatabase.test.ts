import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { accountStoreContract } from '../../accounts/accountStoreContract.js';
import { keyStoreContract } from '../keyStoreContract.js';
import { openPostgresDatabase } from './openPostgresDatabase.js';

// The PostgreSQL server CI starts (scripts/services.sh); each test gets its own schema.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
let current = '';
const fresh = () => {
  current = `nodegate_test_${randomBytes(6).toString('hex')}`;
  schemas.push(current);
  return current;
};

afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await client.end();
});

keyStoreContract(
  'PostgreSQL',
  () => openPostgresDatabase(URL, { schema: fresh() }),
  () => openPostgresDatabase(URL, { schema: current }),
  async (setupSql) => {
    const schema = fresh();
    const client = new pg.Client({ connectionString: URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}; ${setupSql}`);
    } finally {
      await client.end();
    }
    return openPostgresDatabase(URL, { schema });
  },
);

accountStoreContract('PostgreSQL', () => openPostgresDatabase(URL, { schema: fresh() }));
