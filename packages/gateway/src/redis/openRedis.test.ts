import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../test-support/until.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { openRedis } from './openRedis.js';
import { watchRedis } from './watchRedis.js';

const REDIS = '127.0.0.1:6379';
const timeouts = { commandTimeoutMs: 300, connectTimeoutMs: 500 };
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function through(): Promise<{ proxy: TcpProxy; redis: Awaited<ReturnType<typeof openRedis>> }> {
  const proxy = await createTcpProxy(REDIS);
  cleanups.push(() => proxy.close());
  const redis = await openRedis(`redis://${proxy.address}`, timeouts);
  cleanups.push(() => redis.disconnect());
  return { proxy, redis };
}

/** How long `call` takes to settle, and how. */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; error: string | undefined }> {
  const started = performance.now();
  try {
    await call();
    return { ms: performance.now() - started, error: undefined };
  } catch (err) {
    return { ms: performance.now() - started, error: (err as Error).message };
  }
}

describe('openRedis: nothing waits on Redis for ever', () => {
  it('a stalled Redis (silent connection) fails each command after commandTimeoutMs, then the client reconnects once it is back', async () => {
    const { proxy, redis } = await through();
    const counter = `nodegate-test:stalled:${randomUUID()}`;
    cleanups.push(() => redis.del(counter));
    expect(await redis.ping()).toBe('PONG');
    proxy.stall();
    const calls = await Promise.all([
      timed(() => redis.ping()),
      timed(() => redis.get('nodegate-test:nothing')),
      timed(() => redis.incr(counter)),
    ]);
    for (const c of calls) {
      expect(c.error).toMatch(/timed out/i);
      expect(c.ms).toBeGreaterThanOrEqual(250);
      expect(c.ms).toBeLessThan(1_500);
    }
    // the silent connection is dropped (socketTimeout) while the stall lasts
    await until(async () => redis.status !== 'ready', 'the stalled connection to be dropped', { everyMs: 20 });
    proxy.restore();
    await until(async () => (await redis.ping().catch(() => undefined)) === 'PONG', 'Redis to answer again');
    // the INCR that timed out is not sent again on the new connection (a limiter charge that
    // already fell back to local limits would count twice)
    expect(await redis.get(counter)).toBeNull();
  });

  it('a cut Redis fails commands at once (no offline queue) and comes back by itself', async () => {
    const { proxy, redis } = await through();
    proxy.cut();
    await until(async () => redis.status !== 'ready', 'the client to see the connection gone', { everyMs: 20 });
    const c = await timed(() => redis.get('nodegate-test:nothing'));
    expect(c.error).toBeDefined();
    expect(c.ms).toBeLessThan(200);
    proxy.restore();
    await until(async () => (await redis.ping().catch(() => undefined)) === 'PONG', 'Redis to answer again');
  });

  it('watchRedis: down on a lost connection or a stall, logged once each way, up again when a probe answers', async () => {
    const { proxy, redis } = await through();
    const lines: string[] = [];
    const log = { error: () => {}, info: () => {}, warn: (msg: string) => lines.push(msg) };
    const health = watchRedis(redis, { timeoutMs: timeouts.commandTimeoutMs, intervalMs: 100, log });
    cleanups.push(() => health.close());
    expect(health.up()).toBe(true);
    proxy.stall();
    await until(async () => !health.up(), 'the stall to show', { everyMs: 20 });
    expect(health.snapshot().errors).toBeGreaterThan(0);
    proxy.restore();
    await until(async () => health.up(), 'Redis to show up again');
    proxy.cut();
    await until(async () => !health.up(), 'the cut to show', { everyMs: 20 });
    proxy.restore();
    await until(async () => health.up(), 'Redis to show up again');
    expect(lines).toEqual(['redis unavailable', 'redis available again', 'redis unavailable', 'redis available again']);
  });
});
