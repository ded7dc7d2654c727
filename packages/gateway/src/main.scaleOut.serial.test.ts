import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from './config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from './embedded/startAnvil.js';
import { ethMethods } from './families/eth/ethMethods.js';
import { type RunningGateway, startGateway } from './main.js';
import { postJson } from './test-support/startTestGateway.js';
import { admin, createTestKey } from './test-support/testKeys.js';

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `scaleout_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
let anvil: EmbeddedProcess;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;

async function instance(): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-scale-'));
  dirs.push(dataDir);
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: { kind: 'postgres', url: PG, schema },
      redis: { url: REDIS, prefix },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http }],
        },
      ],
    }),
  );
}

beforeAll(async () => {
  anvil = await startAnvil();
  // two gateways on one PostgreSQL schema and one Redis prefix, started together
  [one, two] = await Promise.all([instance(), instance()]);
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

const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
const rpcUrl = (gw: RunningGateway, key: string) => `${gw.networks['eth-devnet']!.http}/v3/${key}`;

describe('several gateway instances on one PostgreSQL and one Redis', () => {
  it('hold a key to its rate across instances: 1,000 req/s offered, 100 credits/s allowed, accepted within 5%', async () => {
    const allowed = 100;
    const cost = ethMethods.eth_chainId.credits;
    const k = await createTestKey(one, { settings: { creditsPerSecond: allowed } });
    const dispatcher = new Agent({ connections: 64 });
    const targets = [rpcUrl(one, k.key), rpcUrl(two, k.key)];
    const accepted: number[] = [];
    const started = Date.now();
    const inflight: Array<Promise<unknown>> = [];
    // 1,000 requests a second for 7 s, alternating between the two instances (a long window: one
    // accepted request is 5 credits, so a short one would measure in 2% steps)
    for (let tick = 0; tick < 700; tick++) {
      const due = started + tick * 10;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      for (let i = 0; i < 10; i++) {
        inflight.push(
          fetch(targets[i % 2]!, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            dispatcher,
          } as unknown as RequestInit).then(async (res) => {
            await res.arrayBuffer();
            if (res.status === 200) accepted.push(Date.now());
          }),
        );
      }
    }
    await Promise.all(inflight);
    await dispatcher.close();
    // steady state: after the first second (a fresh key gets a full second's allowance at once)
    const windowStart = started + 1_000;
    const windowEnd = Math.min(Date.now(), started + 7_000);
    const steady = accepted.filter((at) => at >= windowStart && at < windowEnd).length;
    const rate = (steady * cost) / ((windowEnd - windowStart) / 1000);
    expect(rate).toBeGreaterThan(allowed * 0.95);
    expect(rate).toBeLessThan(allowed * 1.05);
  });

  it('a revocation or settings change made on one instance takes effect on the other within 1 s', async () => {
    const k = await createTestKey(one);
    expect((await postJson(rpcUrl(two, k.key), body)).status).toBe(200); // cached on instance two
    await admin(one, 'PATCH', `/keys/${k.key}`, { settings: { allowedMethods: ['eth_blockNumber'] } });
    let changedAt = Date.now();
    let status = 0;
    while (Date.now() - changedAt < 2_000 && status !== 403) status = (await postJson(rpcUrl(two, k.key), body)).status;
    expect(status).toBe(403);
    expect(Date.now() - changedAt).toBeLessThan(1_000);

    await admin(one, 'DELETE', `/keys/${k.key}`);
    changedAt = Date.now();
    while (Date.now() - changedAt < 2_000 && status !== 401) status = (await postJson(rpcUrl(two, k.key), body)).status;
    expect(status).toBe(401);
    expect(Date.now() - changedAt).toBeLessThan(1_000);
  });

  it('usage recorded by both instances adds up', async () => {
    const k = await createTestKey(two);
    for (let i = 0; i < 7; i++) expect((await postJson(rpcUrl(one, k.key), body)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await postJson(rpcUrl(two, k.key), body)).status).toBe(200);
    await Promise.all([one.flushUsage(), two.flushUsage()]);
    const from = Date.now() - 3_600_000;
    const usage = await admin(one, 'GET', `/usage?key=${k.key}&from=${from}&to=${Date.now() + 60_000}&bucket=1h`);
    expect(usage.totals.requests).toBe(12);
    expect(usage.totals.credits).toBe(12 * ethMethods.eth_chainId.credits);
  });
});
