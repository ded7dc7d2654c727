import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openEmbeddedDatabase } from '../../store/embedded/openEmbeddedDatabase.js';
import { openPostgresDatabase } from '../../store/postgres/openPostgresDatabase.js';
import { gatewayStoreContract } from './gatewayStoreContract.js';

// The embedded SQLite (in memory, in its worker thread), and the PostgreSQL server CI starts
// (scripts/services.sh), each test with a schema of its own.
gatewayStoreContract('embedded (SQLite, in memory)', () => openEmbeddedDatabase(undefined));

const URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
afterAll(async () => {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await client.end();
});
gatewayStoreContract('PostgreSQL', () => {
  const schema = `nodegate_gw_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return openPostgresDatabase(URL, { schema });
});
