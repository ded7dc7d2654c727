import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { type RunningGateway, startGateway } from '../main.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { metricValue, parseMetrics } from '../test-support/metricSamples.js';
import { admin, createTestKey, type TestKey } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 9: a stalled Redis hung every request on every instance (a 10 s stall: requests
// waited 10.1 s; 20 s: some never answered), with nothing logged and /health at 200; a cut Redis
// gave 500s after 1.6-4.3 s. Two gateway instances on one PostgreSQL schema and one Redis
// (limits, the shared response cache, key-change notices), reaching Redis through a TCP proxy
// the test stalls and cuts while two tenants' traffic runs.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `redisoutage_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
/** Redis commands time out after this: the longest any request may wait on Redis. */
const COMMAND_TIMEOUT_MS = 500;
/** Each request's deadline in these gateways. */
const REQUEST_TIMEOUT_MS = 5_000;
/** What a request may take on this busy 2-core machine beyond what it waited on Redis. */
const MARGIN_MS = 1_500;
const CHAIN_ID_CREDITS = ethMethods.eth_chainId.credits;

let anvil: EmbeddedProcess;
let proxy: TcpProxy;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;

async function instance(): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-redis-outage-'));
  dirs.push(dataDir);
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: { kind: 'postgres', url: PG, schema },
      redis: { url: `redis://${proxy.address}`, prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS, connectTimeoutMs: 500 },
      cache: { enabled: true, kind: 'redis' },
      metrics: { enabled: true, auth: 'none' },
      limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http }],
        },
      ],
    }),
    { logLevel: 'silent' },
  );
}

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await createTcpProxy(REDIS);
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
}

/** One request, timed; a request the gateway never answers shows as status 0 after 3 deadlines. */
async function send(gw: RunningGateway, key: string): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(rpcUrl(gw, key), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chainId,
      signal: AbortSignal.timeout(3 * REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/**
 * `workers` loops sending `key`'s requests to both instances in turn, each at most one every
 * 40 ms (4 workers: at most 100 calls, 500 credits a second, under the busy key's rate), until
 * `stop()`; bounded to 60 s.
 */
function traffic(key: string, workers: number) {
  const answers: Answer[] = [];
  let stopped = false;
  const until = Date.now() + 60_000;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; !stopped && Date.now() < until; i++) {
      const next = Date.now() + 40;
      answers.push(await send(i % 2 === 0 ? one : two, key));
      await sleep(next - Date.now());
    }
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

async function health(gw: RunningGateway): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gw.url}/health`);
  return { status: res.status, body: await res.json() };
}
const metrics = async (gw: RunningGateway) => parseMetrics(await (await fetch(`${gw.url}/metrics`)).text());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new account with one key on the `team` plan (ample for the load), held to `settings` when given. */
async function freshAccount(name: string, settings?: NonNullable<Parameters<typeof createTestKey>[1]>['settings']) {
  const account = await admin(one, 'POST', '/accounts', { name });
  const key: TestKey = await createTestKey(one, {
    accountId: account.id,
    plan: 'team',
    ...(settings ? { settings } : {}),
  });
  return { account: account.id as string, key };
}

/** Credits the account's keys used today, as the limiter counts them (Redis once it is back). */
const usedToday = async (account: string) => (await admin(one, 'GET', `/accounts/${account}/plan`)).usedToday as number;

async function recovered() {
  await until(
    async () => (await health(one)).body.status === 'ok' && (await health(two)).body.status === 'ok',
    'both instances to report Redis back',
    { tries: 150 },
  );
}

describe('Redis away under two instances and two tenants', () => {
  it('stalled: every request answers within its deadline, /health and /metrics say so, limits hold per instance, nothing is lost', async () => {
    // under 1,000 credits/s: charged one script per call (no credit leases), so counts are exact
    const busy = await freshAccount('busy', { creditsPerSecond: 900 });
    const held = await freshAccount('held', { creditsPerSecond: 10 * CHAIN_ID_CREDITS });
    // both instances know both keys (the authenticator's cache) and have used Redis
    for (const gw of [one, two]) {
      expect((await send(gw, busy.key.key)).status).toBe(200);
      expect((await send(gw, held.key.key)).status).toBe(200);
    }
    const load = traffic(busy.key.key, 4);
    await sleep(500);
    proxy.stall();
    await sleep(1_500);

    // while it lasts: both instances say Redis is degraded, and keep serving (HTTP 200)
    for (const gw of [one, two]) {
      const h = await health(gw);
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('degraded');
      expect(h.body.components.redis).toMatchObject({ status: 'degraded' });
      expect(h.body.components.database).toMatchObject({ status: 'ok' });
      const m = await metrics(gw);
      expect(metricValue(m, 'nodegate_redis_up', {})).toBe(0);
      expect(metricValue(m, 'nodegate_limiter_degraded', {})).toBe(1);
      expect(metricValue(m, 'nodegate_redis_errors_total', {})).toBeGreaterThan(0);
    }
    // the held key's rate (10 calls a second) still holds on each instance: 2 s of 4 senders
    const start = Date.now();
    const heldAnswers: Answer[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() - start < 2_000) heldAnswers.push(await send(one, held.key.key));
      }),
    );
    const heldOk = heldAnswers.filter((a) => a.status === 200).length;
    expect(heldAnswers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(heldOk).toBeGreaterThan(0);
    // at most its rate over the window on this instance (and its first second's allowance)
    expect(heldOk).toBeLessThanOrEqual(10 * 3 + 2);
    await sleep(500);
    proxy.restore();
    await recovered();
    const answers = await load.stop();

    // nothing hung: every request was answered, within one Redis timeout and the machine's margin
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const slowest = Math.max(...answers.map((a) => a.ms), ...heldAnswers.map((a) => a.ms));
    expect(slowest).toBeLessThan(COMMAND_TIMEOUT_MS * 2 + MARGIN_MS);
    expect(slowest).toBeLessThan(REQUEST_TIMEOUT_MS);

    // nothing lost: every answered call is in usage, and Redis counts the whole day again
    await Promise.all([one.flushUsage(), two.flushUsage()]);
    const from = Date.now() - 3_600_000;
    const served = answers.length + 2;
    const usage = await admin(
      one,
      'GET',
      `/usage?key=${busy.key.key}&from=${from}&to=${Date.now() + 60_000}&bucket=1h`,
    );
    expect(usage.totals.requests).toBe(served);
    expect(usage.totals.credits).toBe(served * CHAIN_ID_CREDITS);
    // Redis's day total has every credit admitted, those admitted per instance during the stall
    // included (handed back); it may also hold the charges that were in flight when the stall
    // began (Redis may have run them though their answers never came back): at most one per sender
    const charged = served * CHAIN_ID_CREDITS;
    const inFlight = 4 * CHAIN_ID_CREDITS;
    const total = await until(async () => {
      const used = await usedToday(busy.account);
      return used >= charged ? used : undefined;
    }, 'the day total to be whole');
    expect(total).toBeLessThanOrEqual(charged + inFlight);
    const heldServed = heldOk + 2;
    await until(
      async () => (await usedToday(held.account)) === heldServed * CHAIN_ID_CREDITS,
      "the held key's day total to be whole",
    );
  });

  it('cut: requests answer at once (no 500s) and Redis is used again once it is back', async () => {
    const { key } = await freshAccount('cut');
    for (const gw of [one, two]) expect((await send(gw, key.key)).status).toBe(200);
    const load = traffic(key.key, 4);
    await sleep(300);
    proxy.cut();
    await sleep(1_500);
    const during = [await health(one), await health(two)];
    proxy.restore();
    await recovered();
    const answers = await load.stop();
    for (const h of during) expect(h.body.components.redis.status).toBe('degraded');
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(COMMAND_TIMEOUT_MS + MARGIN_MS);
    // the shared limiter is back in use on both instances
    for (const gw of [one, two]) expect(metricValue(await metrics(gw), 'nodegate_limiter_degraded', {})).toBe(0);
  });
});
