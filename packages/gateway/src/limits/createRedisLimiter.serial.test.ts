import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisLimiter } from './createRedisLimiter.js';

/** Unique per run; deleted afterwards. Run alone (serial config): it measures a real-time rate. */
const prefix = `nodegate-test:${randomUUID()}:`;
const connections: Redis[] = [];
function connect(): Redis {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 2 });
  connections.push(redis);
  return redis;
}

afterAll(async () => {
  const redis = connect();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await Promise.all(connections.map((c) => c.quit()));
});

describe('createRedisLimiter with leases, in real time', () => {
  it('holds a leasing key to 2,000 credits/s within 5% across two gateways offered 10,000/s, in real time', async () => {
    const gateways = [createRedisLimiter(connect(), { prefix }), createRedisLimiter(connect(), { prefix })];
    const limits = { creditsPerSecond: 2000, creditsPerDay: 1_000_000_000 };
    const key = `lease-two-gateways-${randomUUID()}`;
    const durationMs = 4000;
    const admittedAt: number[] = [];
    const pending: Promise<void>[] = [];
    const start = Date.now();
    let offered = 0;
    for (let elapsed = 0; elapsed < durationMs; elapsed = Date.now() - start) {
      for (const due = elapsed * 10; offered < due; offered++) {
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
    const admitted = admittedAt.filter((at) => at >= 1000 && at < durationMs).length;
    const rate = admitted / ((durationMs - 1000) / 1000);
    console.log(
      `leasing two gateways: offered ${offered} in ${durationMs} ms, admitted ${admittedAt.length}; after the first second ${rate.toFixed(1)}/s (limit 2,000/s, error ${((Math.abs(rate - 2000) / 2000) * 100).toFixed(1)}%)`,
    );
    expect(offered).toBeGreaterThanOrEqual(38_000);
    expect(Math.abs(rate - 2000) / 2000).toBeLessThanOrEqual(0.05);
    await Promise.all(gateways.map((g) => g.close()));
    expect(await createRedisLimiter(connect(), { prefix }).usedToday(key)).toBe(admittedAt.length);
  });
});
