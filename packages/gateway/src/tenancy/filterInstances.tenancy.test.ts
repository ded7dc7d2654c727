import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../main.js';
import { openWsClient } from '../test-support/openWsClient.js';
import { rpc } from '../test-support/startTestGateway.js';
import { createTestKey, type TestKey } from '../test-support/testKeys.js';

// Issue 20 (tenant safety), eth filters behind a load balancer: two gateway instances on one
// PostgreSQL schema and one Redis share the filter registry, so a filter made through one
// instance is read through the other (its owner only), and the per-key bound holds across both.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `filters_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
const NOT_FOUND = { code: -32000, message: 'filter not found' };
const MAX_FILTERS = 4;
let anvil: EmbeddedProcess;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;

async function instance(): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-filters-'));
  dirs.push(dataDir);
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: { kind: 'postgres', url: PG, schema },
      redis: { url: REDIS, prefix },
      cache: { enabled: false },
      limits: { maxFiltersPerKey: MAX_FILTERS },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http, ws: anvil.ws }],
        },
      ],
    }),
  );
}

beforeAll(async () => {
  anvil = await startAnvil();
  one = await instance();
  two = await instance();
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await anvil?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const url = (gw: RunningGateway, key: TestKey) => `${gw.networks['eth-devnet']!.http}/v3/${key.key}`;

describe('two instances share the filter registry through Redis (issue 20)', () => {
  it('a filter made on instance one is read on instance two, by its owner only, and removed there for both', async () => {
    const a = await createTestKey(one, { name: 'filters-a' });
    const b = await createTestKey(one, { name: 'filters-b' });
    const id = (await rpc(url(one, a), 'eth_newBlockFilter')).result as string;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    await rpc(anvil.http, 'anvil_mine', ['0x2']);
    const changes = await rpc(url(two, a), 'eth_getFilterChanges', [id]);
    expect(changes.error).toBeUndefined();
    expect(changes.result).toHaveLength(2);
    // read on two, then on one: each change once
    expect((await rpc(url(one, a), 'eth_getFilterChanges', [id])).result).toEqual([]);
    // another key, on either instance and transport: unknown
    expect((await rpc(url(two, b), 'eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
    expect((await rpc(url(one, b), 'eth_getFilterLogs', [id])).error).toEqual(NOT_FOUND);
    const wsB = await openWsClient(`${two.networks['eth-devnet']!.ws}/ws/v3/${b.key}`);
    expect((await wsB.call('eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
    expect((await wsB.call('eth_uninstallFilter', [id])).result).toBe(false);
    wsB.close();
    // its owner removes it on two: gone on one too
    expect((await rpc(url(two, a), 'eth_uninstallFilter', [id])).result).toBe(true);
    expect((await rpc(url(one, a), 'eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
  });

  it('the per-key bound counts the filters made through both instances', async () => {
    const c = await createTestKey(one, { name: 'filters-c' });
    for (let i = 0; i < MAX_FILTERS; i++) {
      const gw = i % 2 === 0 ? one : two;
      expect((await rpc(url(gw, c), 'eth_newBlockFilter')).result).toMatch(/^0x/);
    }
    expect((await rpc(url(one, c), 'eth_newBlockFilter')).error).toMatchObject({ code: -32005 });
    expect((await rpc(url(two, c), 'eth_newBlockFilter')).error).toMatchObject({ code: -32005 });
  });
});
