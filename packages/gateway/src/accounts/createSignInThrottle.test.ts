import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInThrottle, type SignInThrottleOptions } from './createSignInThrottle.js';
import { until } from '../test-support/until.js';
import { throttleAddress } from './throttleAddress.js';

const REDIS = 'redis://127.0.0.1:6379';
let redis: Redis;
const prefixes: string[] = [];
beforeAll(() => {
  redis = new Redis(REDIS, { lazyConnect: false, maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
});

// The same behaviour in memory and in Redis.
for (const kind of ['memory', 'redis'] as const) {
  const throttle = (options: SignInThrottleOptions = {}) => {
    if (kind === 'memory') return createSignInThrottle(options);
    const prefix = `nodegate-test:${randomUUID()}:`;
    prefixes.push(prefix);
    return createSignInThrottle({ ...options, redis, prefix });
  };

  describe(`sign-in throttle (${kind})`, () => {
    it('counts concurrent attempts before any of them finishes: exactly the limit pass', async () => {
      const t = throttle({ maxPerAddress: 5, maxPerEmail: 100 });
      expect(t.store).toBe(kind);
      const taken = await Promise.all(
        Array.from({ length: 50 }, (_, i) => t.take({ address: '10.0.0.1', email: `u${i}@x` })),
      );
      expect(taken.filter((x) => x.ok)).toHaveLength(5);
      const refused = taken.find((x) => !x.ok);
      expect(refused).toMatchObject({ ok: false, scope: 'address' });
      expect(refused!.ok === false && refused!.retryAfterSeconds).toBeGreaterThan(14 * 60);
      // another address is counted apart
      expect((await t.take({ address: '10.0.0.2' })).ok).toBe(true);
    });

    it('counts per email from any address (case and spaces do not matter), and a success gives its attempt back', async () => {
      const t = throttle({ maxPerAddress: 100, maxPerEmail: 3 });
      const a = await t.take({ address: '10.0.0.1', email: 'Alice@X ' });
      const b = await t.take({ address: '10.0.0.2', email: 'alice@x' });
      expect(a.ok && b.ok).toBe(true);
      if (a.ok) await a.giveBack();
      if (a.ok) await a.giveBack(); // once only
      expect((await t.take({ address: '10.0.0.3', email: 'ALICE@x' })).ok).toBe(true);
      expect((await t.take({ address: '10.0.0.4', email: 'alice@x' })).ok).toBe(true);
      expect(await t.take({ address: '10.0.0.5', email: 'alice@x' })).toMatchObject({ ok: false, scope: 'email' });
      expect((await t.take({ address: '10.0.0.5', email: 'bob@x' })).ok).toBe(true);
    });

    it('a window ends: the subject may try again', async () => {
      const t = throttle({ maxPerAddress: 1, windowMs: 300 });
      expect((await t.take({ address: '10.0.0.9' })).ok).toBe(true);
      const refused = await t.take({ address: '10.0.0.9' });
      expect(refused).toMatchObject({ ok: false, retryAfterSeconds: 1 });
      await new Promise((r) => setTimeout(r, 400));
      expect((await t.take({ address: '10.0.0.9' })).ok).toBe(true);
    });
  });
}

describe('sign-in throttle: what it keeps', () => {
  it('Redis holds neither emails nor anything unbounded; its keys expire', async () => {
    const prefix = `nodegate-test:${randomUUID()}:`;
    prefixes.push(prefix);
    const t = createSignInThrottle({ redis, prefix });
    await t.take({ address: '2001:db8:1:2:aaaa:bbbb:cccc:dddd', email: `${'x'.repeat(300)}@secret.example` });
    const keys = (await redis.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([`${prefix}signin:a:2001:db8:1:2::/64`, expect.stringMatching(/signin:e:[0-9a-f]{32}$/)]);
    expect(keys.join()).not.toContain('secret');
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(14 * 60_000);
  });

  it('memory keeps at most maxEntries subjects (the oldest window goes first)', async () => {
    const t = createSignInThrottle({ maxPerAddress: 1, maxEntries: 10 });
    expect((await t.take({ address: '10.1.0.0' })).ok).toBe(true);
    expect((await t.take({ address: '10.1.0.0' })).ok).toBe(false);
    for (let i = 1; i <= 10; i++) await t.take({ address: `10.1.0.${i}` });
    // 10.1.0.0 was the oldest: it went to make room, so it starts again
    expect((await t.take({ address: '10.1.0.0' })).ok).toBe(true);
    expect((await t.take({ address: '10.1.0.10' })).ok).toBe(false);
  });

  it('a stalled Redis: the attempt is counted in memory after the deadline, logged once, and Redis is used again when it answers', async () => {
    // a server that accepts and never answers, then (after `answer`) forwards to the real Redis
    const held: Socket[] = [];
    let answering = false;
    const server: Server = createServer((socket) => {
      if (!answering) {
        held.push(socket);
        return;
      }
      const up = connect(6379, '127.0.0.1');
      socket.pipe(up).pipe(socket);
      socket.on('error', () => up.destroy());
      up.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const stalled = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
    });
    stalled.on('error', () => {});
    const warned: string[] = [];
    const prefix = `nodegate-test:${randomUUID()}:`;
    prefixes.push(prefix);
    const t = createSignInThrottle({
      redis: stalled,
      prefix,
      redisTimeoutMs: 200,
      maxPerAddress: 2,
      log: { warn: (m) => warned.push(m) },
    });
    try {
      const started = Date.now();
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await t.take({ address: '10.2.0.1' }));
      expect(Date.now() - started).toBeLessThan(3 * 200 + 500);
      expect(results.map((r) => r.ok)).toEqual([true, true, false]);
      expect(t.store).toBe('memory');
      expect(warned).toHaveLength(1);
      // Redis answers again (the held connection drops, the next one reaches it): counted there again
      answering = true;
      for (const s of held.splice(0)) s.destroy();
      await until(async () => {
        await t.take({ address: '10.2.0.2' });
        return t.store === 'redis';
      }, 'the throttle to count in Redis again');
      expect(warned).toHaveLength(2);
      expect(await redis.exists(`${prefix}signin:a:10.2.0.2`)).toBe(1);
    } finally {
      stalled.disconnect();
      for (const s of held) s.destroy();
      server.close();
    }
  });
});

describe('throttleAddress', () => {
  it('IPv4 as it is (also IPv4-mapped), IPv6 by its /64, anything else hashed and bounded', () => {
    expect(throttleAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(throttleAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(throttleAddress('2001:db8:0:1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(throttleAddress('2001:DB8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(throttleAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(throttleAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    const odd = throttleAddress(`not an address ${'x'.repeat(1000)}`);
    expect(odd).toMatch(/^h:[0-9a-f]{32}$/);
  });
});
