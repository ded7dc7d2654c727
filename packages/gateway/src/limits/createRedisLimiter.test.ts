import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisLimiter } from './createRedisLimiter.js';
import type { LimitDecision } from './Limiter.js';
import { limiterContract } from './limiterContract.js';

/** Unique per run, so parallel test files and runs never share keys; deleted afterwards. */
const prefix = `nodegate-test:${randomUUID()}:`;
const connections: Redis[] = [];

function connect(): Redis {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 2 });
  connections.push(redis);
  return redis;
}

let shared: Redis | undefined;
function sharedConnection(): Redis {
  shared ??= connect();
  return shared;
}

async function keysUnder(redis: Redis, match: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${match}*`, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

afterAll(async () => {
  const redis = sharedConnection();
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
  await Promise.all(connections.map((c) => c.quit()));
});

limiterContract('createRedisLimiter', async () => createRedisLimiter(sharedConnection(), { prefix }));

describe('createRedisLimiter', () => {
  const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);

  it('keeps one hash per key that expires a minute after the UTC day it counts', async () => {
    const redis = sharedConnection();
    const limiter = createRedisLimiter(redis, { prefix });
    const key = `ttl-${randomUUID()}`;
    expect((await limiter.charge(key, 3, { creditsPerSecond: 10, creditsPerDay: 100 }, T0)).ok).toBe(true);
    expect(await keysUnder(redis, prefix + key)).toEqual([prefix + key]);
    const ttl = await redis.pttl(prefix + key);
    expect(ttl).toBeGreaterThan(12 * 3_600_000 + 50_000);
    expect(ttl).toBeLessThanOrEqual(12 * 3_600_000 + 60_000);
    // Near midnight the key lives on only long enough for the rate window.
    const late = Date.UTC(2030, 0, 15, 23, 59, 59, 500);
    const lateKey = `ttl-late-${randomUUID()}`;
    await limiter.record(lateKey, 1, late);
    const lateTtl = await redis.pttl(prefix + lateKey);
    expect(lateTtl).toBeGreaterThan(50_000);
    expect(lateTtl).toBeLessThanOrEqual(60_500);
  });

  it('reads options.now when no time is passed', async () => {
    let now = T0;
    const limiter = createRedisLimiter(sharedConnection(), { prefix, now: () => now });
    const key = `clock-${randomUUID()}`;
    const limits = { creditsPerSecond: 2, creditsPerDay: 100 };
    expect((await limiter.charge(key, 2, limits)).ok).toBe(true);
    expect(await limiter.charge(key, 1, limits)).toMatchObject({ kind: 'rate', currentRps: 2 });
    now += 2000;
    expect((await limiter.charge(key, 1, limits)).ok).toBe(true);
    expect(await limiter.usedToday(key)).toBe(3);
  });

  it('holds a key to its rate within 5% across two gateways on two connections, in real time', async () => {
    const gateways = [createRedisLimiter(connect(), { prefix }), createRedisLimiter(connect(), { prefix })];
    const limits = { creditsPerSecond: 100, creditsPerDay: 1_000_000_000 };
    const key = `two-gateways-${randomUUID()}`;
    const durationMs = 4000;
    const admittedAt: number[] = [];
    const pending: Promise<void>[] = [];
    const start = Date.now();
    let offered = 0;
    for (let elapsed = 0; elapsed < durationMs; elapsed = Date.now() - start) {
      // 1,000 charges per second, alternating between the two gateways.
      for (const due = elapsed; offered < due; offered++) {
        const at = Date.now() - start;
        const gateway = gateways[offered % 2]!;
        pending.push(
          gateway.charge(key, 1, limits).then((d) => {
            if (d.ok) admittedAt.push(at);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await Promise.all(pending);
    const measuredSeconds = (durationMs - 1000) / 1000;
    const admitted = admittedAt.filter((at) => at >= 1000 && at < durationMs).length;
    const rate = admitted / measuredSeconds;
    console.log(
      `two gateways: offered ${offered} in ${durationMs} ms, admitted ${admittedAt.length}; after the first second ${rate.toFixed(1)}/s (limit 100/s, error ${((Math.abs(rate - 100) / 100) * 100).toFixed(1)}%)`,
    );
    // Late timers are caught up, so the offered load holds even on a busy machine.
    expect(offered).toBeGreaterThanOrEqual(3800);
    expect(Math.abs(rate - 100) / 100).toBeLessThanOrEqual(0.05);
    expect(await gateways[0]!.usedToday(key)).toBe(admittedAt.length);
  });

  /** Counts the limiter scripts `redis` runs from now on (the command is looked up per call). */
  function countScripts(redis: Redis): { readonly calls: number } {
    const target = redis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = target.nodegateLimiterCharge!;
    const counter = { calls: 0 };
    target.nodegateLimiterCharge = (...args: unknown[]) => {
      counter.calls++;
      return original.apply(redis, args);
    };
    return counter;
  }

  it('leases credits to a busy key: under 10% of its charges reach Redis, and the day stays exact', async () => {
    const redis = connect();
    const limiter = createRedisLimiter(redis, { prefix });
    const scripts = countScripts(redis);
    const key = `lease-${randomUUID()}`;
    const limits = { creditsPerSecond: 100_000, creditsPerDay: 1_000_000_000 };
    // 5,000 one-credit charges over 1 s of injected time (5/ms), each awaited.
    for (let i = 0; i < 5000; i++) expect((await limiter.charge(key, 1, limits, T0 + Math.floor(i / 5))).ok).toBe(true);
    console.log(`leases: 5,000 charges at 5,000/s took ${scripts.calls} scripts`);
    expect(scripts.calls).toBeLessThan(500);
    // This process knows its own unspent lease; another sees it once settled by close().
    expect(await limiter.usedToday(key, T0 + 999)).toBe(5000);
    await limiter.close();
    expect(await createRedisLimiter(sharedConnection(), { prefix }).usedToday(key, T0 + 999)).toBe(5000);
  });

  it('charges exactly, one script per charge, with lease: false or under 1,000 credits/s', async () => {
    const redis = connect();
    const off = createRedisLimiter(redis, { prefix, lease: false });
    const on = createRedisLimiter(redis, { prefix });
    const scripts = countScripts(redis);
    const key = `exact-${randomUUID()}`;
    for (let i = 0; i < 300; i++) await off.charge(key, 1, { creditsPerSecond: 100_000, creditsPerDay: 1e9 }, T0 + i);
    for (let i = 0; i < 300; i++) await on.charge(key, 1, { creditsPerSecond: 999, creditsPerDay: 1e9 }, T0 + 5000 + i);
    expect(scripts.calls).toBe(600);
  });

  it('refuses a leasing key at its rate with the same numbers as exact charging, its lease handed back', async () => {
    const limiter = createRedisLimiter(connect(), { prefix });
    const key = `lease-refusal-${randomUUID()}`;
    const limits = { creditsPerSecond: 1000, creditsPerDay: 1_000_000_000 };
    let admitted = 0;
    let refusal: LimitDecision | undefined;
    // 2,000 credits offered in the first half of one bucket: the 1,001st (at 250 ms) is refused,
    // and must wait for the bucket to end (750 ms) as with exact charging.
    for (let i = 0; i < 2000 && refusal === undefined; i++) {
      const decision = await limiter.charge(key, 1, limits, T0 + Math.floor(i / 4));
      if (decision.ok) admitted++;
      else refusal = decision;
    }
    expect(admitted).toBe(1000);
    expect(refusal).toEqual({ ok: false, kind: 'rate', currentRps: 1000, allowedRps: 1000, backoffSeconds: 0.76 });
    expect(await limiter.usedToday(key, T0 + 300)).toBe(1000);
    await limiter.close();
  });

  it('settles the lease of a key that goes idle within about 2 s, so other gateways see the exact day', async () => {
    const limiter = createRedisLimiter(connect(), { prefix });
    const other = createRedisLimiter(connect(), { prefix });
    const key = `lease-idle-${randomUUID()}`;
    const limits = { creditsPerSecond: 50_000, creditsPerDay: 1_000_000_000 };
    let admitted = 0;
    for (let i = 0; i < 3000; i++) if ((await limiter.charge(key, 1, limits)).ok) admitted++;
    expect(admitted).toBe(3000);
    const seen = await other.usedToday(key);
    expect(seen).toBeGreaterThanOrEqual(3000);
    expect(seen).toBeLessThanOrEqual(3000 + 1000);
    await new Promise((resolve) => setTimeout(resolve, 3200));
    expect(await other.usedToday(key)).toBe(3000);
    await limiter.close();
  });
});
