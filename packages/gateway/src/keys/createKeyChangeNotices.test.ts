import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedis } from '../redis/openRedis.js';
import { createTcpProxy, type TcpProxy } from '../test-support/createTcpProxy.js';
import { until } from '../test-support/until.js';
import { createKeyChangeNotices, type KeyChangeNotices } from './createKeyChangeNotices.js';

// Two "instances" of the notices on one real Redis, each through its own TCP proxy, so that
// either one's link can be cut: what one publishes reaches the other, also across a cut.

const REDIS = 'redis://127.0.0.1:6379';
let proxies: TcpProxy[];
let clients: Redis[];
const opened: KeyChangeNotices[] = [];

beforeAll(async () => {
  proxies = [await createTcpProxy(REDIS), await createTcpProxy(REDIS)];
  clients = await Promise.all(proxies.map((p) => openRedis(`redis://${p.address}`)));
});
afterEach(async () => {
  for (const p of proxies) p.restore();
  for (const n of opened.splice(0)) await n.close();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  for (const p of proxies) await p.close();
});

/** Notices on link `i`, recording what they were told. */
async function notices(i: number, prefix: string) {
  const heard = { changed: [] as string[], resyncs: 0 };
  const n = await createKeyChangeNotices(clients[i]!, prefix, {
    changed: (key) => heard.changed.push(key),
    resync: () => {
      heard.resyncs += 1;
    },
  });
  opened.push(n);
  return { n, heard };
}
const key = () => randomBytes(16).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createKeyChangeNotices over Redis', () => {
  it('a change reaches the other instance and this one at once', async () => {
    const prefix = `nodegate-test:${randomUUID()}:`;
    const [a, b] = [await notices(0, prefix), await notices(1, prefix)];
    const k = key();
    a.n.publish(k);
    expect(a.heard.changed).toEqual([k]);
    await until(async () => b.heard.changed.includes(k), 'the other instance to hear the change');
    expect(a.n.pending()).toBe(0);
  });

  it("a change published while this instance's link is cut is kept and published once it is back", async () => {
    const prefix = `nodegate-test:${randomUUID()}:`;
    const [a, b] = [await notices(0, prefix), await notices(1, prefix)];
    proxies[0]!.cut();
    await sleep(100);
    const k = key();
    a.n.publish(k);
    await until(async () => a.n.pending() === 1, 'the change to be kept');
    await sleep(300);
    expect(b.heard.changed).not.toContain(k);
    proxies[0]!.restore();
    await until(async () => b.heard.changed.includes(k), 'the change to be published again', { tries: 50 });
    expect(a.n.pending()).toBe(0);
  });

  it('more changes than are kept one by one become one "every key" notice', async () => {
    const prefix = `nodegate-test:${randomUUID()}:`;
    const [a, b] = [await notices(0, prefix), await notices(1, prefix)];
    proxies[0]!.cut();
    await sleep(100);
    for (let i = 0; i < 10_001; i++) a.n.publish(key());
    await until(async () => a.n.pending() === 1, 'the kept changes to fold into one');
    const before = b.heard.resyncs;
    proxies[0]!.restore();
    await until(async () => b.heard.resyncs > before, 'the other instance to drop every key', { tries: 50 });
    expect(b.heard.changed).toHaveLength(0);
    expect(a.n.pending()).toBe(0);
  });

  it('an instance whose own subscription was cut resyncs when it is back (the change it missed was published meanwhile)', async () => {
    const prefix = `nodegate-test:${randomUUID()}:`;
    const [a, b] = [await notices(0, prefix), await notices(1, prefix)];
    proxies[1]!.cut();
    await sleep(100);
    const k = key();
    a.n.publish(k);
    await sleep(300);
    expect(a.n.pending()).toBe(0);
    expect(b.heard.changed).not.toContain(k);
    expect(b.heard.resyncs).toBe(0);
    proxies[1]!.restore();
    await until(async () => b.heard.resyncs >= 1, 'the other instance to resync', { tries: 50 });
    expect(b.heard.changed).not.toContain(k);
  });

  it('without Redis, only this process is told', async () => {
    const heard: string[] = [];
    const n = await createKeyChangeNotices(undefined, 'x:', (k) => heard.push(k));
    n.publish('abc');
    expect(heard).toEqual(['abc']);
    expect(n.pending()).toBe(0);
  });
});
