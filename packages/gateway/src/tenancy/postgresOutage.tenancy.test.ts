import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { type RunningGateway, startGateway } from '../main.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { metricValue, parseMetrics } from '../test-support/metricSamples.js';
import { admin, createTestKey, type TestKey } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 10: a stalled PostgreSQL held the admin API, sign-in and unknown-key lookups for
// as long as it stalled (19 s). Two gateway instances on one PostgreSQL schema (reached through
// a TCP proxy the test stalls and cuts) and one Redis, with two tenants' keys: known keys keep
// being served, an unknown key and the admin API get a quick 503, /health and /metrics say
// so, and the usage of every answered request is stored once the database is back.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `pgoutage_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
/** Each statement's deadline in these gateways. */
const QUERY_TIMEOUT_MS = 1_500;
/** Each request's deadline. */
const REQUEST_TIMEOUT_MS = 5_000;
/** What a request may take on this busy 2-core machine beyond what it waited on the database. */
const MARGIN_MS = 1_500;
const CHAIN_ID_CREDITS = ethMethods.eth_chainId.credits;

let anvil: EmbeddedProcess;
let proxy: TcpProxy;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;

async function instance(): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-pg-outage-'));
  dirs.push(dataDir);
  const url = new URL(PG);
  url.host = proxy.address;
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: {
        kind: 'postgres',
        url: url.toString(),
        schema,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        connectTimeoutMs: 500,
      },
      redis: { url: REDIS, prefix },
      metrics: { enabled: true, auth: 'admin-token' },
      limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http, ws: anvil.ws }],
        },
      ],
    }),
    { logLevel: 'silent' },
  );
}

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await createTcpProxy(PG);
  // one after the other: their startup statements (schema, operator) need no lock of the other's
  one = await instance();
  two = await instance();
});
afterAll(async () => {
  proxy?.restore();
  await Promise.all([one?.close(), two?.close()]);
  await proxy?.close();
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

const rpcUrl = (gw: RunningGateway, key: string) => `${gw.networks['eth-devnet']!.http}/v3/${key}`;
const chainId = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });

interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly body: any;
  /** Epoch ms of the answer. */
  readonly at: number;
}

/** One timed request; one the gateway never answers shows as status 0 after 3 deadlines. */
async function timedFetch(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(3 * REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    return {
      status: res.status,
      ms: performance.now() - started,
      body: text ? JSON.parse(text) : undefined,
      at: Date.now(),
    };
  } catch {
    return { status: 0, ms: performance.now() - started, body: undefined, at: Date.now() };
  }
}
const send = (gw: RunningGateway, key: string) =>
  timedFetch(rpcUrl(gw, key), { method: 'POST', headers: { 'content-type': 'application/json' }, body: chainId });
const adminGet = (gw: RunningGateway, path: string) =>
  timedFetch(`${gw.admin.url}${path}`, { headers: { authorization: `Bearer ${gw.admin.token}` } });
const signIn = (gw: RunningGateway) =>
  timedFetch(`${gw.admin.url}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.test', password: 'not-a-password-anyone-has' }),
  });
const health = async (gw: RunningGateway) => {
  const res = await fetch(`${gw.url}/health`);
  return { status: res.status, body: (await res.json()) as any };
};
const metrics = async (gw: RunningGateway) => {
  const res = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.admin.token}` } });
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The HTTP status of a WebSocket upgrade refused by the gateway (0 when it was accepted). */
function upgradeStatus(gw: RunningGateway, key: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`);
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? -1);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(0);
      ws.close();
    });
    ws.on('error', () => resolve(-1));
  });
}

/** `workers` loops sending `key`'s calls to both instances in turn until `stop()`; bounded to 60 s. */
function traffic(key: string, workers: number) {
  const answers: Answer[] = [];
  let stopped = false;
  const end = Date.now() + 60_000;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; !stopped && Date.now() < end; i++) answers.push(await send(i % 2 === 0 ? one : two, key));
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

async function backOnBoth() {
  await until(
    async () => (await health(one)).body.status === 'ok' && (await health(two)).body.status === 'ok',
    'both instances to report the database back',
    { tries: 150 },
  );
}

async function tenant(
  name: string,
  settings?: NonNullable<Parameters<typeof createTestKey>[1]>['settings'],
): Promise<TestKey> {
  const account = await admin(one, 'POST', '/accounts', { name });
  const key = await createTestKey(one, { accountId: account.id, plan: 'team', ...(settings ? { settings } : {}) });
  // both instances have seen it (their authenticators hold its state), after the creation's
  // key-change notice has reached them (it drops the key from every instance's cache)
  await sleep(500);
  for (const gw of [one, two]) expect((await send(gw, key.key)).status).toBe(200);
  return key;
}

const usageOf = async (key: string) => {
  const from = Date.now() - 3_600_000;
  return (await admin(one, 'GET', `/usage?key=${key}&from=${from}&to=${Date.now() + 60_000}&bucket=1h`)).totals;
};

describe('PostgreSQL away under two instances and two tenants', () => {
  it('stalled: known keys are served, unknown keys, the admin API and sign-in get a quick 503, nothing is lost', async () => {
    const served = await tenant('served');
    const limited = await tenant('limited', { creditsPerSecond: 2 * CHAIN_ID_CREDITS });
    // a scrape with the admin token before the outage: the token is remembered for /metrics
    await metrics(one);
    await metrics(two);
    const load = traffic(served.key, 4);
    await sleep(500);
    const stalledAt = Date.now();
    proxy.stall();
    await sleep(300);

    // an unknown key: the first lookup waits for the statement's deadline at most, then at once
    const stranger = randomBytes(16).toString('hex');
    const unknownAnswers = [await send(one, stranger), await send(two, stranger), await send(one, stranger)];
    for (const a of unknownAnswers) {
      expect(a.status).toBe(503);
      expect(a.body.error).toMatchObject({ code: -32603, data: { reason: 'database-unavailable' } });
      expect(a.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
    }
    expect(await upgradeStatus(two, randomBytes(16).toString('hex'))).toBe(503);
    // the admin API and sign-in: 503 with a clear message, not a hang
    for (const gw of [one, two]) {
      const keys = await adminGet(gw, '/keys');
      expect(keys.status).toBe(503);
      expect(keys.body.error.code).toBe('unavailable');
      expect(keys.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
      const attempt = await signIn(gw);
      expect(attempt.status).toBe(503);
      expect(attempt.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
    }
    // /health and /metrics say so on both instances (HTTP 200: they still serve known keys)
    for (const gw of [one, two]) {
      const h = await health(gw);
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('degraded');
      expect(h.body.components.database).toMatchObject({ status: 'degraded' });
      expect(h.body.components.redis).toMatchObject({ status: 'ok' });
      const m = await metrics(gw);
      expect(metricValue(m, 'nodegate_database_up', {})).toBe(0);
      expect(metricValue(m, 'nodegate_database_errors_total', {})).toBeGreaterThan(0);
    }
    // limits still apply to a known key (they live in Redis)
    const limitedAnswers = [];
    for (let i = 0; i < 6; i++) limitedAnswers.push(await send(one, limited.key));
    expect(limitedAnswers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    await sleep(1_000);
    proxy.restore();
    await backOnBoth();
    const answers = await load.stop();

    // the known key was served throughout, every call within its deadline
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(REQUEST_TIMEOUT_MS);
    // an unknown key is an ordinary 401 again, the admin API answers
    expect((await send(one, stranger)).status).toBe(401);
    expect((await adminGet(two, '/keys')).status).toBe(200);
    // nothing lost: the usage of every answered call is stored once the database is back
    // (a flush that was being written when the database stalled may have been stored although
    // its answer never came back, and is written again: at most what was recorded in the last
    // flush interval before the stall, per instance)
    const answered = answers.length + 2;
    const inLastFlush = answers.filter((a) => a.at > stalledAt - 1_100 && a.at <= stalledAt).length;
    let stored = await usageOf(served.key);
    for (let i = 0; i < 50 && stored.requests < answered; i++) {
      await Promise.all([one.flushUsage().catch(() => {}), two.flushUsage().catch(() => {})]);
      await sleep(100);
      stored = await usageOf(served.key);
    }
    expect(stored.requests).toBeGreaterThanOrEqual(answered);
    expect(stored.requests).toBeLessThanOrEqual(answered + inLastFlush);
    expect(stored.credits).toBe(stored.requests * CHAIN_ID_CREDITS);
  });

  it('cut: unknown keys get the 503 at once, known keys are served, and it heals by itself', async () => {
    const known = await tenant('cut');
    proxy.cut();
    const stranger = randomBytes(16).toString('hex');
    const refused = await send(two, stranger);
    expect(refused.status).toBe(503);
    expect(refused.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
    for (const gw of [one, two]) {
      const a = await send(gw, known.key);
      expect(a.status).toBe(200);
      expect(a.ms).toBeLessThan(MARGIN_MS);
    }
    proxy.restore();
    await backOnBoth();
    expect((await send(two, stranger)).status).toBe(401);
    expect((await adminGet(one, '/keys')).status).toBe(200);
  });
});
