import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyHealth } from '../../../health/createDependencyHealth.js';
import { openRedis } from '../../../redis/openRedis.js';
import { watchRedis } from '../../../redis/watchRedis.js';
import { createTcpProxy, type TcpProxy } from '../../../test-support/createTcpProxy.js';
import { until } from '../../../test-support/until.js';
import { createMemoryFilterStore } from './createMemoryFilterStore.js';
import { createRedisFilterStore } from './createRedisFilterStore.js';
import { createSharedFilterStore } from './createSharedFilterStore.js';
import type { FilterEntry } from './FilterStore.js';
import { newFilterId } from './newFilterId.js';

// Two instances' filter stores on one real Redis, instance one reaching it through a TCP proxy
// the test stalls and cuts: filters are shared while Redis answers; while it is away instance one
// keeps new filters in its memory (no call waits past the command timeout), and finds them there
// afterwards too.
const REDIS = 'redis://127.0.0.1:6379';
const prefix = `nodegate-test:${randomUUID()}:filters:`;
const TIMEOUT_MS = 60_000;
const COMMAND_TIMEOUT_MS = 300;
let proxy: TcpProxy;
let redisOne: Redis;
let redisTwo: Redis;
let health: DependencyHealth;
const warnings: string[] = [];
let one: ReturnType<typeof createSharedFilterStore>;
let two: ReturnType<typeof createSharedFilterStore>;

const entry = (owner: string, over: Partial<FilterEntry> = {}): FilterEntry => {
  const t = Date.now();
  return {
    id: newFilterId(),
    owner,
    network: 'eth-devnet',
    upstream: 'anvil',
    upstreamId: '0x1',
    kind: 'blocks',
    createdAt: t,
    polledAt: t,
    ...over,
  };
};

beforeAll(async () => {
  proxy = await createTcpProxy(REDIS);
  const timeouts = { commandTimeoutMs: COMMAND_TIMEOUT_MS, connectTimeoutMs: 500 };
  redisOne = await openRedis(`redis://${proxy.address}`, timeouts);
  redisTwo = await openRedis(REDIS, timeouts);
  health = watchRedis(redisOne, { timeoutMs: COMMAND_TIMEOUT_MS, intervalMs: 100 });
  const log = { warn: (msg: string) => void warnings.push(msg) };
  const shared = (redis: Redis) =>
    createRedisFilterStore(redis, { prefix, timeoutMs: TIMEOUT_MS, commandTimeoutMs: COMMAND_TIMEOUT_MS });
  one = createSharedFilterStore({
    shared: shared(redisOne),
    local: createMemoryFilterStore({ timeoutMs: TIMEOUT_MS }),
    health,
    log,
  });
  two = createSharedFilterStore({
    shared: shared(redisTwo),
    local: createMemoryFilterStore({ timeoutMs: TIMEOUT_MS }),
  });
});
afterAll(async () => {
  proxy?.restore();
  health?.close();
  const keys = await redisTwo.keys(`${prefix}*`);
  if (keys.length > 0) await redisTwo.del(...keys);
  redisOne?.disconnect();
  await redisTwo?.quit();
  await proxy?.close();
});

describe('filters shared through Redis, kept in memory while it is away', () => {
  it("a filter made through one instance is another instance's to read, bound shared, while Redis answers", async () => {
    const e = entry('key-a');
    expect(await one.add(e, 2)).toBe(true);
    expect(await two.get(e.id, Date.now())).toEqual(e);
    expect(await two.add(entry('key-a'), 2)).toBe(true);
    expect(await one.add(entry('key-a'), 2)).toBe(false);
    expect(await two.remove(e.id, 'key-a', Date.now())).toBe(true);
    expect(await one.get(e.id, Date.now())).toBeUndefined();
    expect(one.where).toBe('redis');
  });

  it('with Redis stalled, then cut: calls end within the command timeout, filters go to memory and stay readable here', async () => {
    const before = entry('key-b');
    expect(await one.add(before, 10)).toBe(true);
    proxy.stall();
    const started = Date.now();
    const during = entry('key-b');
    expect(await one.add(during, 10)).toBe(true);
    expect(Date.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS + 500);
    expect(one.where).toBe('memory');
    expect(warnings.some((w) => w.includes("kept in this instance's memory"))).toBe(true);
    proxy.cut();
    const cut = entry('key-b');
    expect(await one.add(cut, 10)).toBe(true);
    expect((await one.get(during.id, Date.now()))?.id).toBe(during.id);
    expect(await one.touch(cut.id, 'key-b', Date.now())).toBe(true);
    // another instance sees only what reached Redis (documented: memory filters are this instance's)
    expect(await two.get(during.id, Date.now())).toBeUndefined();
    expect((await two.get(before.id, Date.now()))?.id).toBe(before.id);
    // a filter in Redis cannot be read here while Redis is away: not found, never another's
    expect(await one.get(before.id, Date.now())).toBeUndefined();

    proxy.restore();
    await until(async () => health.up(), 'Redis to answer again', { tries: 100, everyMs: 50 });
    const after = entry('key-b');
    expect(await one.add(after, 10)).toBe(true);
    expect(one.where).toBe('redis');
    expect((await two.get(after.id, Date.now()))?.id).toBe(after.id);
    // made during the outage: still this instance's, and counted against the key's bound
    expect((await one.get(during.id, Date.now()))?.id).toBe(during.id);
    expect(await one.count('key-b', Date.now())).toBe(4);
    expect(await one.remove(during.id, 'key-b', Date.now())).toBe(true);
    expect(await one.get(during.id, Date.now())).toBeUndefined();
  });
});
