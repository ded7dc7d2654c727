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
import { type AdminAnswer, adminBrowser } from '../test-support/adminBrowser.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { admin } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 6: the sign-in throttle could be raced and was per address only: 200
// concurrent attempts were all evaluated (the count was read before scrypt and written after,
// from a stale entry), and nothing limited the attempts on one account from many addresses.
// Now each attempt is counted before the password check, per address and per email, in Redis
// (shared by every instance, with a deadline) or, while Redis is away, in memory. Two instances
// on one PostgreSQL schema and one Redis, each reaching Redis through a TCP proxy; both trust
// 127.0.0.1 as their proxy, so X-Forwarded-For gives each attempt the address the test chooses.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `signin_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
let anvil: EmbeddedProcess;
const dirs: string[] = [];
let one: RunningGateway;
let two: RunningGateway;
let proxyOne: TcpProxy;
let proxyTwo: TcpProxy;

async function instance(proxy: TcpProxy): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-signin-'));
  dirs.push(dataDir);
  return startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir,
      database: { kind: 'postgres', url: PG, schema },
      redis: { url: `redis://${proxy.address}`, prefix },
      trustedProxies: ['127.0.0.1'],
      cache: { enabled: false },
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

/** A user with a password of their own (invited by the operator, accepted by them). */
async function user(email: string, password: string): Promise<void> {
  const invitation = await admin(one, 'POST', '/accounts/operator/members', { email, role: 'viewer' });
  expect((await adminBrowser(one.admin.url).accept(invitation.token, password)).status).toBe(200);
}

/** One sign-in attempt through `gw`, from `address` (X-Forwarded-For, believed from 127.0.0.1). */
const attempt = (gw: RunningGateway, address: string, email: string, password = 'not the password') =>
  adminBrowser(gw.admin.url).signIn({ email, password }, { 'x-forwarded-for': address });

const statuses = (answers: AdminAnswer[]) => {
  const count: Record<number, number> = {};
  for (const a of answers) count[a.status] = (count[a.status] ?? 0) + 1;
  return count;
};

beforeAll(async () => {
  anvil = await startAnvil();
  proxyOne = await createTcpProxy(REDIS);
  proxyTwo = await createTcpProxy(REDIS);
  one = await instance(proxyOne);
  two = await instance(proxyTwo);
});
afterAll(async () => {
  for (const p of [proxyOne, proxyTwo]) p?.restore();
  await Promise.all([one?.close(), two?.close()]);
  for (const p of [proxyOne, proxyTwo]) await p?.close();
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

describe('the sign-in throttle (issue 20, item 6)', () => {
  it('200 concurrent attempts from one address: at most 20 passwords are checked, the rest 429 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => attempt(one, '203.0.113.7', `race-${i}@example.com`)),
    );
    const count = statuses(answers);
    // every checked password was wrong, so every check is a 401: no more than the limit were checked
    expect(count[401] ?? 0).toBeGreaterThan(0);
    expect(count[401]).toBeLessThanOrEqual(20);
    expect((count[401] ?? 0) + (count[429] ?? 0)).toBe(200);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(['too_many_attempts', 'busy']).toContain(a.json.error.code);
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // the address stays refused, even with a right password
    await user('race-victim@example.com', 'race victim password');
    const right = await attempt(one, '203.0.113.7', 'race-victim@example.com', 'race victim password');
    expect(right.status).toBe(429);
    expect(right.json.error.code).toBe('too_many_attempts');
  });

  it('one account from many addresses: 10 attempts per email, then 429 for every address, the right password too', async () => {
    await user('target@example.com', 'target password 1');
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => attempt(i % 2 ? one : two, `198.51.100.${i + 1}`, 'target@example.com')),
    );
    expect(statuses(answers)).toEqual({ 401: 10, 429: 5 });
    const right = await attempt(one, '198.51.100.200', 'target@example.com', 'target password 1');
    expect(right.status).toBe(429);
    const wait = Number(right.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // another account is not held by it
    await user('bystander@example.com', 'bystander password');
    expect((await attempt(two, '198.51.100.201', 'bystander@example.com', 'bystander password')).status).toBe(200);
  });

  it('the counts hold across instances: one address gets 20 attempts in all, however they are spread', async () => {
    const answers: AdminAnswer[] = [];
    // a few at a time on each instance (well under the scrypt bound): every refusal is the throttle's
    for (let round = 0; round < 6; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            attempt(i % 2 ? one : two, '192.0.2.55', `spread-${round}-${i}@example.com`),
          ),
        )),
      );
    }
    expect(statuses(answers)).toEqual({ 401: 20, 429: 4 });
    for (const a of answers.filter((x) => x.status === 429)) expect(a.json.error.code).toBe('too_many_attempts');
  });

  it('with Redis stalled, attempts are answered within its deadline and still counted (in memory), then in Redis again', async () => {
    proxyOne.stall();
    try {
      const answers: AdminAnswer[] = [];
      for (let round = 0; round < 5; round++) {
        const started = Date.now();
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, (_, i) => attempt(one, '192.0.2.99', `stalled-${round}-${i}@example.com`)),
          )),
        );
        // the Redis deadline (1 s), the password check and the failure's fixed 1 s: never the stall
        expect(Date.now() - started).toBeLessThan(5_000);
      }
      expect(statuses(answers)).toEqual({ 401: 20, 429: 5 });
    } finally {
      proxyOne.restore();
    }
    // back in Redis (its health probe says so): the other instance and this one count together again
    await until(async () => {
      const health = (await (await fetch(`${one.url}/health`)).json()) as any;
      return health.components?.redis?.status === 'ok';
    }, 'Redis to be seen again');
    const back: AdminAnswer[] = [];
    for (let i = 0; i < 22; i += 2) {
      back.push(
        ...(await Promise.all([
          attempt(one, '192.0.2.100', `back-${i}@example.com`),
          attempt(two, '192.0.2.100', `back-${i + 1}@example.com`),
        ])),
      );
    }
    expect(statuses(back)).toEqual({ 401: 20, 429: 2 });
  });
});
