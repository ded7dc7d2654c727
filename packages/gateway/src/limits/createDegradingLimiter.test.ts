import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openRedis } from '../redis/openRedis.js';
import { watchRedis } from '../redis/watchRedis.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { until } from '../test-support/until.js';
import { createSharedLimiter } from './createSharedLimiter.js';
import type { KeyLimits } from './Limiter.js';

const prefix = `nodegate-test:${randomUUID()}:limits:`;
const timeouts = { commandTimeoutMs: 300, connectTimeoutMs: 500 };
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let direct: Redis | undefined;

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  if (direct === undefined) return;
  const keys = await direct.keys(`${prefix}*`);
  if (keys.length > 0) await direct.del(...keys);
  direct.disconnect();
});

/** One gateway's limiter on Redis through `proxy`, with what it logged. */
async function instance(proxy: TcpProxy) {
  const redis = await openRedis(`redis://${proxy.address}`, timeouts);
  const lines: string[] = [];
  const log = { error: () => {}, info: () => {}, warn: (msg: string) => lines.push(msg) };
  const health = watchRedis(redis, { timeoutMs: timeouts.commandTimeoutMs, intervalMs: 100, log });
  const limiter = createSharedLimiter(redis, { prefix, health, log });
  cleanups.push(() => redis.disconnect());
  cleanups.push(() => health.close());
  return { redis, health, limiter, lines };
}

async function proxied(): Promise<TcpProxy> {
  const proxy = await createTcpProxy('127.0.0.1:6379');
  cleanups.push(() => proxy.close());
  direct ??= await openRedis('redis://127.0.0.1:6379');
  return proxy;
}

const timed = async <T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const started = performance.now();
  const value = await call();
  return { ms: performance.now() - started, value };
};

describe('createSharedLimiter without Redis: fails open to a local limit per instance', () => {
  it('a stalled Redis: the first charge waits one command timeout, the next ones none; the rate still holds per instance', async () => {
    const proxy = await proxied();
    const a = await instance(proxy);
    const key = `rate-${randomUUID()}`;
    const limits: KeyLimits = { creditsPerSecond: 20, creditsPerDay: 1_000_000 };
    expect((await a.limiter.charge(key, 1, limits)).ok).toBe(true);
    proxy.stall();
    const first = await timed(() => a.limiter.charge(key, 1, limits));
    expect(first.value.ok).toBe(true);
    expect(first.ms).toBeLessThan(timeouts.commandTimeoutMs + 700);
    expect(a.limiter.degraded()).toBe(true);
    // known to be away: no charge waits on Redis any more, and the key's rate is held here
    let admitted = 0;
    const started = performance.now();
    for (let i = 0; i < 200; i++) if ((await a.limiter.charge(key, 1, limits)).ok) admitted += 1;
    expect(performance.now() - started).toBeLessThan(200);
    expect(admitted).toBeGreaterThanOrEqual(15);
    expect(admitted).toBeLessThanOrEqual(20);
    const refused = await a.limiter.charge(key, 1, limits);
    expect(refused).toMatchObject({ ok: false, kind: 'rate', allowedRps: 20 });
    expect(a.lines.filter((l) => l.startsWith('limiter degraded'))).toHaveLength(1);
    proxy.restore();
    await until(async () => !a.limiter.degraded(), 'the limiter to use Redis again');
    expect(a.lines.filter((l) => l.startsWith('limiter shared again'))).toHaveLength(1);
  });

  it('a key that had used its day in Redis stays refused on every instance while Redis is away', async () => {
    const proxy = await proxied();
    const [a, b] = [await instance(proxy), await instance(proxy)];
    const key = `day-${randomUUID()}`;
    // under 1,000 credits/s: charged exactly (no credit leases), so every count is exact
    const limits: KeyLimits = { creditsPerSecond: 500, creditsPerDay: 100 };
    expect((await a.limiter.charge(key, 60, limits)).ok).toBe(true);
    expect((await b.limiter.charge(key, 30, limits)).ok).toBe(true);
    proxy.cut();
    await until(async () => a.limiter.degraded() && b.limiter.degraded(), 'both to see Redis gone', { everyMs: 20 });
    // b last saw 90 used: 10 left for it; a last saw 60: it allows up to 40 (each instance knows what it saw)
    expect((await b.limiter.charge(key, 11, limits)).ok).toBe(false);
    const refusal = await b.limiter.charge(key, 11, limits);
    expect(refusal).toMatchObject({ ok: false, kind: 'daily', dailyLimit: 100, used: 90 });
    expect((await b.limiter.charge(key, 10, limits)).ok).toBe(true);
    expect((await b.limiter.charge(key, 1, limits)).ok).toBe(false);
    expect((await a.limiter.charge(key, 41, limits)).ok).toBe(false);
    expect(await b.limiter.usedToday(key)).toBe(100);
    proxy.restore();
    await until(async () => !b.limiter.degraded(), 'b to use Redis again');
    // the 10 credits b admitted alone are handed back: Redis counts the whole day
    await until(async () => (await direct!.hget(prefix + key, 'u')) === '100', 'the day total to be whole');
    expect(await b.limiter.usedToday(key)).toBe(100);
    expect((await a.limiter.charge(key, 1, limits)).ok).toBe(false);
  });

  it('credits handed back count for the day, not for the current second', async () => {
    const proxy = await proxied();
    const a = await instance(proxy);
    const key = `window-${randomUUID()}`;
    const limits: KeyLimits = { creditsPerSecond: 50, creditsPerDay: 1_000_000 };
    expect((await a.limiter.charge(key, 1, limits)).ok).toBe(true);
    proxy.cut();
    await until(async () => a.limiter.degraded(), 'Redis to be seen gone', { everyMs: 20 });
    expect((await a.limiter.charge(key, 45, limits)).ok).toBe(true);
    // the outage outlasts the second those credits were charged in
    await new Promise((r) => setTimeout(r, 1_100));
    proxy.restore();
    await until(async () => (await direct!.hget(prefix + key, 'u')) === '46', 'the credits to be handed back');
    // had they been counted in the current second's window, 45 of 50 would be taken
    expect((await a.limiter.charge(key, 40, limits)).ok).toBe(true);
  });
});
