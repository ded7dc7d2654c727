import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { keyStoreContract } from '../keyStoreContract.js';
import { createPostgresKeyStore } from './createPostgresKeyStore.js';

// The PostgreSQL server CI starts (scripts/services.sh); each test gets its own schema.
const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const schemas: string[] = [];
let current = '';

afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await client.end();
});

keyStoreContract(
  'PostgreSQL',
  () => {
    current = `nodegate_test_${randomBytes(6).toString('hex')}`;
    schemas.push(current);
    return createPostgresKeyStore(URL, { schema: current });
  },
  () => createPostgresKeyStore(URL, { schema: current }),
);
