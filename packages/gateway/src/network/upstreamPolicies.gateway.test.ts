import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import type { RunningGateway } from '../main.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { type PolicyGateway, startPolicyGateway } from '../test-support/startPolicyGateway.js';
import { postJson, rpc } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';

// The upstream policies through a real gateway: two primaries (fault proxies in front of one real
// anvil), a partner (another anvil), and a network whose probes are rare (for /health).
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let partner: Awaited<ReturnType<typeof startAnvil>>;
let f1: FaultUpstream;
let f2: FaultUpstream;
let solo: FaultUpstream;
let t: PolicyGateway;
let gw: RunningGateway;
let devUrl: string;
let growthUrl: string;
let soloUrl: string;

const pass = () => ({ kind: 'pass' }) as const;
const health = () => t.health();

beforeAll(async () => {
  [anvil, partner] = await Promise.all([startAnvil(), startAnvil({ chainId: 31337 })]);
  [f1, f2, solo] = await Promise.all([
    createFaultUpstream(anvil.http),
    createFaultUpstream(anvil.http),
    createFaultUpstream(anvil.http),
  ]);
  // (no response cache: the policies alone, and no head tracker traffic, in the counts)
  t = await startPolicyGateway([
    {
      name: 'mainnet',
      family: 'eth',
      pathPrefix: '/mainnet',
      upstreams: [
        { name: 'first', http: f1.url },
        { name: 'second', http: f2.url },
      ],
      partners: [{ name: 'partner', http: partner.http }],
      // no exploration share: the counts below are exact
      policy: { probeIntervalMs: 200, breakerFailures: 3, breakerOpenMs: 500, exploreShare: 0 },
    },
    {
      name: 'solo',
      family: 'eth',
      pathPrefix: '/solo',
      upstreams: [{ name: 'solo', http: solo.url }],
      policy: { probeIntervalMs: 600_000, methodTimeoutsMs: { eth_getBalance: 300 } },
    },
  ]);
  gw = t.gw;
  devUrl = t.url('mainnet');
  soloUrl = t.url('solo');
  growthUrl = t.url('mainnet', (await createTestKey(gw, { plan: 'growth' })).key);
});

afterAll(async () => {
  await t?.stop();
  await Promise.all([f1?.close(), f2?.close(), solo?.close()]);
  await Promise.all([anvil?.stop(), partner?.stop()]);
});

describe('upstream policies through the gateway', () => {
  it('/health reads the background snapshot: 100 GETs send nothing upstream', async () => {
    const before = solo.hits();
    for (let i = 0; i < 100; i++) expect((await fetch(`${gw.url}/health`)).status).toBe(200);
    expect(solo.hits()).toBe(before);
    const networks = await health();
    expect(networks.solo.upstreams[0]).toMatchObject({
      name: 'solo',
      healthy: true,
      breaker: 'closed',
      role: 'primary',
    });
    expect(networks.mainnet.upstreams.map((u: any) => u.role)).toEqual(['primary', 'primary', 'partner']);
  });

  it('"header not found" from a node behind fails over to the next upstream; client errors pass through once', async () => {
    f1.script((m) =>
      m === 'eth_getBalance' ? { kind: 'rpc-error', code: -32000, message: 'header not found' } : pass(),
    );
    f2.script(pass);
    try {
      const addr = `0x${'ab'.repeat(20)}`;
      const direct = await rpc(anvil.http, 'eth_getBalance', [addr, 'latest']);
      const before = f2.hits('eth_getBalance');
      const r = await rpc(devUrl, 'eth_getBalance', [addr, 'latest']);
      expect(r.result).toBe(direct.result);
      expect(f2.hits('eth_getBalance') - before).toBe(1);
      // a client error (insufficient funds) is the same on every node: one upstream asked, answer as it is
      const asked = f1.hits('eth_estimateGas') + f2.hits('eth_estimateGas');
      const e = await rpc(devUrl, 'eth_estimateGas', [{ from: addr, to: addr, value: '0xffffffffffffffffffff' }]);
      const d = await rpc(anvil.http, 'eth_estimateGas', [{ from: addr, to: addr, value: '0xffffffffffffffffffff' }]);
      expect(e.error).toEqual(d.error);
      expect(f1.hits('eth_estimateGas') + f2.hits('eth_estimateGas') - asked).toBe(1);
    } finally {
      f1.script(pass);
    }
  });

  it('a 429 with Retry-After is retried after the wait it asked for', async () => {
    // (the gateway asked each upstream its chain id at start)
    const base = solo.hits('eth_chainId');
    solo.script((m, n) => (m === 'eth_chainId' && n === base + 1 ? { kind: '429', retryAfterS: 1 } : pass()));
    const started = Date.now();
    const r = await rpc(soloUrl, 'eth_chainId');
    expect(r.result).toBe('0x7a69');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(solo.hits('eth_chainId') - base).toBe(2);
    solo.script(pass);
  });

  it('a method with its own timeout is abandoned after it; other methods wait for the upstream', async () => {
    solo.script(() => ({ kind: 'slow', ms: 1_200 }));
    try {
      let t = performance.now();
      const timedOut = await rpc(soloUrl, 'eth_getBalance', [`0x${'11'.repeat(20)}`, 'latest']);
      const took = performance.now() - t;
      expect(timedOut.error?.message).toMatch(/eth_getBalance within 300 ms/);
      expect(took).toBeLessThan(1_100);
      t = performance.now();
      const slow = await rpc(soloUrl, 'eth_chainId');
      expect(slow.result).toBe('0x7a69');
      expect(performance.now() - t).toBeGreaterThanOrEqual(1_100);
    } finally {
      solo.script(pass);
    }
  });

  it('a read slower than its upstream p95 is hedged to the other upstream', async () => {
    const base = f1.hits('eth_gasPrice');
    f1.script((m, n) => (m === 'eth_gasPrice' && n - base === 41 ? { kind: 'slow', ms: 3_000 } : pass()));
    f2.script(pass);
    try {
      for (let i = 0; i < 40; i++) expect((await rpc(devUrl, 'eth_gasPrice')).result).toMatch(/^0x/);
      const f2Before = f2.hits('eth_gasPrice');
      const started = Date.now();
      const r = await rpc(devUrl, 'eth_gasPrice');
      expect(r.result).toMatch(/^0x/);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(f2.hits('eth_gasPrice') - f2Before).toBeGreaterThanOrEqual(1);
    } finally {
      f1.script(pass);
    }
  });

  it('a failing upstream opens its breaker (shown in /health) and traffic flows to the other', async () => {
    f1.script(() => ({ kind: 'html', status: 502 }));
    f2.script(pass);
    try {
      // user requests and the background probes (every 200 ms) both see the 502s
      let first: any;
      for (let i = 0; i < 40; i++) {
        expect((await rpc(devUrl, 'eth_chainId')).result).toBe('0x7a69');
        first = (await health()).mainnet.upstreams.find((u: any) => u.name === 'first');
        if (first.breaker === 'open') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(first.breaker).toBe('open');
      expect(first.healthy).toBe(false);
      const before = f1.hits('eth_chainId');
      for (let i = 0; i < 20; i++) expect((await rpc(devUrl, 'eth_chainId')).result).toBe('0x7a69');
      // at most a trial or two reach it while it is open
      expect(f1.hits('eth_chainId') - before).toBeLessThanOrEqual(2);
    } finally {
      f1.script(pass);
    }
    // recovered: the probe's trial closes it again
    for (let i = 0; i < 50; i++) {
      const first = (await health()).mainnet.upstreams.find((u: any) => u.name === 'first');
      if (first.breaker === 'closed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await health()).mainnet.upstreams.find((u: any) => u.name === 'first').breaker).toBe('closed');
  });

  it('a node whose head lags is seen in the snapshot and loses the routing', async () => {
    await rpc(anvil.http, 'anvil_mine', ['0x20']);
    f1.script((m) => (m === 'eth_blockNumber' ? { kind: 'stale-head', behind: 10 } : pass()));
    try {
      for (let i = 0; i < 30; i++) {
        const first = (await health()).mainnet.upstreams.find((u: any) => u.name === 'first');
        if (first.lag === 10) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const upstreams = (await health()).mainnet.upstreams;
      expect(upstreams.find((u: any) => u.name === 'first').lag).toBe(10);
      expect(upstreams.find((u: any) => u.name === 'second').lag).toBe(0);
      await new Promise((r) => setTimeout(r, 150));
      const before = { f1: f1.hits('eth_getCode'), f2: f2.hits('eth_getCode') };
      for (let i = 0; i < 20; i++) await rpc(devUrl, 'eth_getCode', [`0x${'00'.repeat(20)}`, 'latest']);
      expect(f2.hits('eth_getCode') - before.f2).toBe(20);
      expect(f1.hits('eth_getCode') - before.f1).toBe(0);
    } finally {
      f1.script(pass);
    }
  });

  it('failover protection: a forwardable method goes to the partner only when every primary is down, for a plan that has it and a request (or a key setting) that asks', async () => {
    const genesis = (await rpc(partner.http, 'eth_getBlockByNumber', ['0x0', false])).result;
    f1.script(() => ({ kind: 'html', status: 502 }));
    f2.script(() => ({ kind: 'reset' }));
    try {
      const ask = (url: string, method: string, params: unknown[], headers: Record<string, string> = {}) =>
        postJson(url, { jsonrpc: '2.0', id: 1, method, params }, headers);
      const failover = { 'enable-failover': 'true' };
      const byPartner = await ask(growthUrl, 'eth_getBlockByHash', [genesis.hash, false], failover);
      expect(byPartner.json.result.hash).toBe(genesis.hash);
      expect(byPartner.headers.get('x-nodegate-failover')).toBe('partner');
      // not asked for: the outage shows
      const notAsked = await ask(growthUrl, 'eth_getBlockByHash', [genesis.hash, false]);
      expect(notAsked.json.error.code).toBe(-32603);
      expect(notAsked.headers.get('x-nodegate-failover')).toBeNull();
      // a key whose setting asks for it on every request needs no header
      const byDefault = await createTestKey(gw, { plan: 'growth', settings: { enableFailover: true } });
      const byDefaultUrl = `${gw.networks.mainnet!.http}/v3/${byDefault.key}`;
      const bySetting = await ask(byDefaultUrl, 'eth_getBlockByHash', [genesis.hash, false]);
      expect(bySetting.json.result.hash).toBe(genesis.hash);
      expect(bySetting.headers.get('x-nodegate-failover')).toBe('partner');
      // the dev plan has no failover protection
      const devPlan = await ask(devUrl, 'eth_getBlockByHash', [genesis.hash, false], failover);
      expect(devPlan.json.error.code).toBe(-32603);
      // only the forwardable methods
      const notForwardable = await ask(growthUrl, 'eth_getBlockByNumber', ['0x0', false], failover);
      expect(notForwardable.json.error.code).toBe(-32603);
      // and it never hangs: 20 concurrent lookups answered by the partner within a second
      const started = Date.now();
      const all = await Promise.all(
        Array.from({ length: 20 }, () => ask(growthUrl, 'eth_getBlockByHash', [genesis.hash, false], failover)),
      );
      expect(all.every((a) => a.json.result?.hash === genesis.hash)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      f1.script(pass);
      f2.script(pass);
    }
  });
});
