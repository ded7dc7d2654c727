import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcResult } from '@nodegate/starknet-devchain/testing';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startStarknetDevchain } from '../embedded/startStarknetDevchain.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { type RunningGateway, startGateway } from '../main.js';
import { openWsClient, type WsTestClient } from '../test-support/openWsClient.js';
import { postJson, rpc, type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { createTestKey, setKeySettings } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 5: subscriptions and WebSocket traffic got around the limits. A key that had
// used its day over HTTP still received 30 of 30 newHeads events (events were sent whatever the
// limiter said); a key flooding refused calls over one WebSocket got 163k -32005 answers in 8 s
// (the pause a held key gets on HTTP did not apply per message). Every test has a second key
// whose traffic must go on untouched. (The CPU and p99 figures: wsFlood.serial.test.ts.)

/** Credits of one event (usage records it as the notification, charged as the subscribe). */
const EVENT = ethMethods.eth_subscribe.credits;
const CHAIN_ID = ethMethods.eth_chainId.credits;
const clients: WsTestClient[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Ethereum: events and WebSocket calls are held to the key limits (issue 20, item 5)', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ extra: { cache: { enabled: false } } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.stop();
  });
  const wsUrl = (key: string) => `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${key}`;
  const httpUrl = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;
  const connect = async (key: string) => {
    const c = await openWsClient(wsUrl(key));
    clients.push(c);
    return c;
  };
  const mine = async (n: number) => {
    for (let i = 0; i < n; i++) expect((await rpc(t.rpcUrl, 'evm_mine')).error).toBeUndefined();
  };

  it('a key that used its day over HTTP gets no event: a -32005 notice, then 1008; the other key gets 30 of 30', async () => {
    const a = await createTestKey(t.gw, { name: 'spent', settings: { creditsPerDay: EVENT + 2 * CHAIN_ID } });
    const b = await createTestKey(t.gw, { name: 'bystander' });
    const ca = await connect(a.key);
    const cb = await connect(b.key);
    const subA = (await ca.call('eth_subscribe', ['newHeads'])).result as string;
    const subB = (await cb.call('eth_subscribe', ['newHeads'])).result as string;
    // the rest of the day, spent over HTTP
    const body = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };
    for (let i = 0; i < 2; i++) expect((await postJson(httpUrl(a.key), body)).status).toBe(200);
    expect((await postJson(httpUrl(a.key), body)).status).toBe(429);

    await mine(30);
    await until(async () => cb.events(subB).length === 30, 'the other key to get 30 heads');
    const closed = await ca.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^daily credit limit exceeded; resets at \d{4}-\d\d-\d\dT/);
    expect(ca.events(subA)).toHaveLength(0);
    const notice = ca.unmatched.find((m) => m.id === null && m.error);
    expect(notice.error).toMatchObject({ code: -32005, message: 'daily credit limit exceeded' });
    expect(notice.error.data.daily_limit).toBe(EVENT + 2 * CHAIN_ID);
    expect(cb.closedWith()).toBeUndefined();
  });

  it('the events that still fit in the day are sent, then the connection closes; a lower creditsPerDay applies to the next event', async () => {
    const a = await createTestKey(t.gw, { name: 'two events', settings: { creditsPerDay: EVENT + 2 * EVENT } });
    const c = await createTestKey(t.gw, { name: 'lowered' });
    const b = await createTestKey(t.gw, { name: 'bystander' });
    const ca = await connect(a.key);
    const cc = await connect(c.key);
    const cb = await connect(b.key);
    const subA = (await ca.call('eth_subscribe', ['newHeads'])).result as string;
    const subC = (await cc.call('eth_subscribe', ['newHeads'])).result as string;
    const subB = (await cb.call('eth_subscribe', ['newHeads'])).result as string;
    await mine(3);
    await until(async () => cb.events(subB).length === 3, 'three heads');
    await ca.closed;
    expect(ca.events(subA)).toHaveLength(2);
    expect(ca.closedWith()!.code).toBe(1008);
    expect(cc.events(subC)).toHaveLength(3);

    // c has used 5 + 3 events' credits: a day of that much stops its events at once
    await setKeySettings(t.gw, c.key, { creditsPerDay: EVENT + 3 * EVENT });
    await mine(5);
    await until(async () => cb.events(subB).length === 8, 'five more heads');
    expect((await cc.closed).code).toBe(1008);
    expect(cc.events(subC)).toHaveLength(3);
  });

  it('a key flooding one WebSocket with refused calls waits out its pause per message: a few -32005 a second, not thousands; the other key answers meanwhile', async () => {
    const a = await createTestKey(t.gw, { name: 'flooder', settings: { creditsPerSecond: CHAIN_ID } });
    const b = await createTestKey(t.gw, { name: 'bystander' });
    const cb = await connect(b.key);
    const flood = new WebSocket(wsUrl(a.key), { perMessageDeflate: false });
    await new Promise((r) => flood.once('open', r));
    const counts = { ok: 0, limited: 0, other: 0 };
    const limitedAt: number[] = [];
    flood.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.result !== undefined) counts.ok += 1;
      else if (m.error?.code === -32005) {
        counts.limited += 1;
        limitedAt.push(Date.now());
      } else counts.other += 1;
    });
    let closed: { code: number; reason: string } | undefined;
    flood.on('close', (code, reason) => {
      closed = { code, reason: reason.toString() };
    });
    flood.on('error', () => {});
    const msg = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
    const end = Date.now() + 3_000;
    const latencies: number[] = [];
    const measuring = (async () => {
      while (Date.now() < end) {
        const started = performance.now();
        expect((await cb.call('eth_chainId')).result).toBe('0x7a69');
        latencies.push(performance.now() - started);
        await sleep(20);
      }
    })();
    while (Date.now() < end && closed === undefined) {
      // as fast as the socket takes them (the gateway stops reading while the key is held)
      if (flood.readyState === flood.OPEN && flood.bufferedAmount < 1 << 20)
        for (let i = 0; i < 100; i++) flood.send(msg);
      await new Promise((r) => setImmediate(r));
    }
    await measuring;
    flood.terminate();
    console.info(
      `ws flood: ${JSON.stringify(counts)} (-32005 in the last 2 s: ${limitedAt.filter((at) => at >= end - 2_000).length}), closed ${JSON.stringify(closed)}, bystander calls ${latencies.length}`,
    );
    // before: every message was answered at once (tens of thousands of -32005 in 3 s). Now the
    // messages that arrived before the first refusal held the key are refused together (at most
    // one in-flight window), then one message per pause
    const lastTwoSeconds = limitedAt.filter((at) => at >= end - 2_000).length;
    expect(counts.limited).toBeLessThan(256 + 20);
    expect(lastTwoSeconds).toBeLessThan(20);
    expect(counts.ok).toBeLessThanOrEqual(5);
    if (closed) {
      expect(closed.code).toBe(1008);
      expect(closed.reason).toMatch(/^too many requests in flight/);
    }
    expect(latencies.length).toBeGreaterThan(20);
  });
});

describe('Starknet: events stop when the key is over its daily credits (issue 20, item 5)', () => {
  let devchain: EmbeddedProcess;
  let gw: RunningGateway;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodegate-ws-limits-'));
    devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
    gw = await startGateway(
      validateConfig({
        listen: '127.0.0.1:0',
        dataDir: join(dir, 'gw'),
        devKey: true,
        cache: { enabled: false },
        networks: [
          {
            name: 'starknet-devnet',
            family: 'starknet',
            dev: true,
            pathPrefix: '/starknet-devnet',
            upstreams: [{ name: 'devchain', http: devchain.http, ws: devchain.ws }],
          },
        ],
      }),
    );
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await gw?.close();
    await devchain?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starknet_subscribeNewHeads: the joining head and one more fit; then a -32005 notice and 1008; the other key gets every head', async () => {
    const url = (key: string) => `${gw.networks['starknet-devnet']!.ws}/ws/v3/${key}`;
    // the subscribe call, and two events (the current head on joining, then one new head)
    const a = await createTestKey(gw, { name: 'spent', settings: { creditsPerDay: 5 + 2 * EVENT } });
    const b = await createTestKey(gw, { name: 'bystander' });
    const ca = await openWsClient(url(a.key));
    const cb = await openWsClient(url(b.key));
    clients.push(ca, cb);
    const subA = (await ca.call('starknet_subscribeNewHeads', {})).result as string;
    const subB = (await cb.call('starknet_subscribeNewHeads', {})).result as string;
    await until(async () => ca.events(subA).length === 1 && cb.events(subB).length === 1, 'the joining head');
    for (let i = 0; i < 4; i++) await rpcResult(devchain.http, 'devnet_createBlock');
    await until(async () => cb.events(subB).length === 5, 'four more heads');
    const closed = await ca.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^daily credit limit exceeded/);
    expect(ca.events(subA)).toHaveLength(2);
    expect(ca.unmatched.find((m) => m.id === null && m.error).error.code).toBe(-32005);
    expect(cb.closedWith()).toBeUndefined();
  });
});
