import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startAnvil } from '../embedded/startAnvil.js';
import { GatewayError } from '../errors/GatewayError.js';
import { ethFamily } from '../families/eth/ethFamily.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { createHttpUpstream } from '../upstream/createHttpUpstream.js';
import { createFaultUpstream, type Fault, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { createNetwork, type Network, type NetworkDeps } from './createNetwork.js';

// Routing decisions of one network over two fault proxies in front of one real anvil, with the
// clock and the random source injected where a decision depends on them.
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let f1: FaultUpstream;
let f2: FaultUpstream;
const open: Network[] = [];
const pass = (): Fault => ({ kind: 'pass' });
const addr = `0x${'ab'.repeat(20)}`;

beforeAll(async () => {
  anvil = await startAnvil();
  [f1, f2] = await Promise.all([createFaultUpstream(anvil.http), createFaultUpstream(anvil.http)]);
});
afterEach(async () => {
  f1.script(pass);
  f2.script(pass);
  for (const n of open.splice(0)) {
    await n.close();
    await Promise.all(n.upstreams.map((u) => u.close()));
  }
});
afterAll(async () => {
  await Promise.all([f1?.close(), f2?.close()]);
  await anvil?.stop();
});

/** A network over f1 and f2 (in that order) with this policy; no background probe unless asked. */
function network(
  policy: Record<string, unknown>,
  deps: NetworkDeps = {},
  extra: Record<string, unknown> = {},
): Network {
  const settings = validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams: [
          { name: 'one', http: f1.url },
          { name: 'two', http: f2.url },
        ],
        policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: false, ...policy },
        ...extra,
      },
    ],
  }).networks[0]!;
  const n = createNetwork(
    settings,
    ethFamily,
    settings.upstreams.map((u) => createHttpUpstream({ name: u.name, http: u.http!, timeoutMs: 10_000 })),
    deps,
  );
  open.push(n);
  return n;
}
const health = (n: Network, name: string) => n.health().find((h) => h.name === name)!;
const lacksProof = (m: string): Fault =>
  m === 'eth_getProof'
    ? { kind: 'rpc-error', code: -32601, message: 'the method eth_getProof does not exist/is not available' }
    : pass();
const getProof = (n: Network) => n.forward('eth_getProof', [addr, [], 'latest'], ethMethods.eth_getProof);

describe('capabilities', () => {
  it('a method one upstream lacks is routed around it, asked again after capabilityTtlMs, and re-learned after it recovers', async () => {
    let t = 1_000_000;
    const n = network({ capabilityTtlMs: 60_000 }, { now: () => t });
    f1.script(lacksProof);
    // the other a little slower, so the routing stays with the first whatever the load
    f2.script(() => ({ kind: 'slow', ms: 20 }));
    const first = await getProof(n);
    expect(first.upstream).toBe('two');
    expect(f1.hits('eth_getProof')).toBe(1);
    expect(health(n, 'one').lacks).toEqual(['eth_getProof']);
    for (let i = 0; i < 5; i++) expect((await getProof(n)).upstream).toBe('two');
    expect(f1.hits('eth_getProof')).toBe(1);
    // expired: asked again (and learned again)
    t += 60_000;
    expect((await getProof(n)).upstream).toBe('two');
    expect(f1.hits('eth_getProof')).toBe(2);
    expect(health(n, 'one').lacks).toEqual(['eth_getProof']);
    // it goes away and comes back (upgraded, say): its capabilities are learned again
    f1.script(() => ({ kind: 'html', status: 502 }));
    await n.probeNow();
    expect(health(n, 'one').healthy).toBe(false);
    f1.script(pass);
    await n.probeNow();
    expect(health(n, 'one').lacks).toEqual([]);
    expect((await getProof(n)).upstream).toBe('one');
    expect(f1.hits('eth_getProof')).toBe(3);
  });

  it('when every upstream lacks a method, the answer is -32601 naming it, not "every upstream is failing"', async () => {
    const n = network({});
    f1.script(lacksProof);
    f2.script(lacksProof);
    const before = f1.hits('eth_getProof') + f2.hits('eth_getProof');
    await expect(getProof(n)).rejects.toMatchObject({ code: -32601 });
    // each was asked once, and said so
    const hits = f1.hits('eth_getProof') + f2.hits('eth_getProof');
    expect(hits - before).toBe(2);
    for (let i = 0; i < 3; i++) {
      const err = await getProof(n).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ code: -32601, message: 'the method eth_getProof does not exist/is not available' });
    }
    // known now: nobody is asked
    expect(f1.hits('eth_getProof') + f2.hits('eth_getProof')).toBe(hits);
    // and the upstreams stay healthy for everything else
    for (const h of n.health()) expect(h.breaker).toBe('closed');
    expect((await n.forward('eth_chainId', [], ethMethods.eth_chainId)).result).toBe('0x7a69');
  });

  it("learns each upstream's chain id and client version at start; one on another chain takes no traffic", async () => {
    const n = network({}, {}, { chainId: 31337 });
    await n.probeNow();
    for (const h of n.health()) {
      expect(h.chainId).toBe('0x7a69');
      expect(h.clientVersion).toMatch(/anvil/i);
      expect(h.wrongChain).toBeUndefined();
    }
    // a network that expects chain 1: both upstreams are anvil's 31337
    const wrong = network({}, {}, { chainId: 1 });
    await wrong.probeNow();
    for (const h of wrong.health()) expect(h).toMatchObject({ wrongChain: true, healthy: false });
    const before = f1.hits('eth_getBalance') + f2.hits('eth_getBalance');
    const err = await wrong.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance).catch((e) => e);
    expect(err).toMatchObject({
      code: -32603,
      message: 'upstream unavailable for network chain: no upstream is on chain 0x1',
    });
    expect(f1.hits('eth_getBalance') + f2.hits('eth_getBalance')).toBe(before);
  });
});

describe('scores per upstream and method class', () => {
  it('a node slow at eth_getLogs keeps the light reads and loses the heavy ones', async () => {
    const n = network({});
    f1.script((m) => (m === 'eth_getLogs' ? { kind: 'slow', ms: 150 } : pass()));
    f2.script((m) => (m === 'eth_getBalance' ? { kind: 'slow', ms: 150 } : pass()));
    const logs = () => n.forward('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x0' }], ethMethods.eth_getLogs);
    const balance = () => n.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance);
    for (let i = 0; i < 5; i++) {
      await logs();
      await balance();
      await new Promise((r) => setTimeout(r, 110)); // past the 100 ms between re-rankings
    }
    const before = { logs1: f1.hits('eth_getLogs'), logs2: f2.hits('eth_getLogs'), bal1: f1.hits('eth_getBalance') };
    for (let i = 0; i < 10; i++) {
      expect((await logs()).upstream).toBe('two');
      expect((await balance()).upstream).toBe('one');
    }
    expect(f2.hits('eth_getLogs') - before.logs2).toBe(10);
    expect(f1.hits('eth_getLogs') - before.logs1).toBe(0);
    expect(f1.hits('eth_getBalance') - before.bal1).toBe(10);
    const one = health(n, 'one');
    expect(one.classes.heavy.latencyMs).toBeGreaterThan(100);
    expect(one.classes.light.latencyMs).toBeLessThan(100);
    expect(one.classes.heavy.score).toBeGreaterThan(health(n, 'two').classes.heavy.score);
  });

  it('background probes feed every class: failures raise the error rates and a recovery is seen without client traffic', async () => {
    let t = 1_000_000;
    const n = network({ breakerFailures: 2, breakerOpenMs: 1_000 }, { now: () => t });
    const probeMethods = ['eth_blockNumber', 'eth_chainId', 'web3_clientVersion'];
    const clientCalls = () => f1.hits() - probeMethods.reduce((sum, m) => sum + f1.hits(m), 0);
    const clientCallsBefore = clientCalls();
    f1.script(() => ({ kind: 'html', status: 502 }));
    for (let i = 0; i < 3; i++) await n.probeNow();
    let one = health(n, 'one');
    expect(one.breaker).toBe('open');
    for (const c of ['light', 'heavy', 'write'] as const) expect(one.classes[c].errorRate, c).toBeGreaterThan(0.05);
    f1.script(pass);
    t += 1_000;
    await n.probeNow(); // the breaker's trial: it closes, and the upstream starts clean
    one = health(n, 'one');
    expect(one.breaker).toBe('closed');
    for (const c of ['light', 'heavy', 'write'] as const) expect(one.classes[c].errorRate, c).toBe(0);
    // the probes' latencies are light-class samples
    expect(one.classes.light.samples).toBeGreaterThan(0);
    expect(clientCalls()).toBe(clientCallsBefore);
  });

  it('a small share of reads goes to the other upstreams (never to an open or lagging one)', async () => {
    let t = 1_000_000;
    // one read in twenty draws under the share (then the pick draws 0.99: the first candidate)
    let k = 0;
    const random = () => (k++ % 21 === 0 ? 0.01 : 0.99);
    const n = network({ exploreShare: 0.05, breakerFailures: 1 }, { random, now: () => t });
    await n.probeNow();
    // the other upstream a little slower, so the explored answers never take the routing
    f2.script((m) => (m === 'eth_chainId' ? { kind: 'slow', ms: 10 } : pass()));
    const chainId = () => n.forward('eth_chainId', [], ethMethods.eth_chainId);
    let before = { one: f1.hits('eth_chainId'), two: f2.hits('eth_chainId') };
    for (let i = 0; i < 100; i++) await chainId();
    expect(f2.hits('eth_chainId') - before.two).toBe(5);
    expect(f1.hits('eth_chainId') - before.one).toBe(95);
    // open: never explored
    f2.script(() => ({ kind: 'html', status: 502 }));
    await n.probeNow();
    expect(health(n, 'two').breaker).toBe('open');
    before = { one: f1.hits('eth_chainId'), two: f2.hits('eth_chainId') };
    for (let i = 0; i < 100; i++) await chainId();
    expect(f2.hits('eth_chainId') - before.two).toBe(0);
    // behind the head: never explored either (it would answer with older data)
    await fetch(anvil.http, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x8"]}',
    });
    f2.script((m) => (m === 'eth_blockNumber' ? { kind: 'stale-head', behind: 4 } : pass()));
    t += 60_000;
    await n.probeNow();
    expect(health(n, 'two')).toMatchObject({ breaker: 'closed', lag: 4 });
    before = { one: f1.hits('eth_chainId'), two: f2.hits('eth_chainId') };
    for (let i = 0; i < 100; i++) await chainId();
    expect(f2.hits('eth_chainId') - before.two).toBe(0);
  });

  it("hedging waits for the p95 of the method's class, not of the upstream's fast calls", async () => {
    const n = network({ hedge: true });
    const logs = () => n.forward('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x0' }], ethMethods.eth_getLogs);
    // fast light calls: their p95 is a few ms
    for (let i = 0; i < 100; i++) await n.forward('eth_chainId', [], ethMethods.eth_chainId);
    expect(health(n, 'one').classes.light.p95Ms).toBeLessThan(20);
    // heavy calls of 40 ms: with the upstream's p95 they would all be hedged after 20 ms
    f1.script((m) => (m === 'eth_getLogs' ? { kind: 'slow', ms: 40 } : pass()));
    let before = f2.hits('eth_getLogs');
    for (let i = 0; i < 5; i++) expect((await logs()).upstream).toBe('one');
    expect(f2.hits('eth_getLogs') - before).toBe(0);
    // once the heavy class has its own p95, a heavy call far past it is hedged
    f1.script(pass);
    for (let i = 0; i < 20; i++) await logs();
    f1.script((m) => (m === 'eth_getLogs' ? { kind: 'slow', ms: 3_000 } : pass()));
    before = f2.hits('eth_getLogs');
    const started = performance.now();
    const r = await logs();
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(r.upstream).toBe('two');
    expect(f2.hits('eth_getLogs') - before).toBe(1);
  });
});
