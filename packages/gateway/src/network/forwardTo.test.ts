import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startAnvil } from '../embedded/startAnvil.js';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import { ethFamily } from '../families/eth/ethFamily.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { createFaultUpstream, type Fault, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { createHttpUpstream } from '../upstream/createHttpUpstream.js';
import { createNetwork, type Network } from './createNetwork.js';

// network.forwardTo: one call to one named upstream (state that lives on one node, as eth
// filters do), through that upstream's breaker and method timeout, never failed over, retried or
// hedged elsewhere. Two fault proxies in front of one real anvil.
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let f1: FaultUpstream;
let f2: FaultUpstream;
const open: Network[] = [];
const pass = (): Fault => ({ kind: 'pass' });

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

function network(policy: Record<string, unknown> = {}): Network {
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
        // retries and hedging on: forwardTo must use neither
        policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: true, retries: 2, ...policy },
      },
    ],
  }).networks[0]!;
  const n = createNetwork(
    settings,
    ethFamily,
    settings.upstreams.map((u) => createHttpUpstream({ name: u.name, http: u.http!, timeoutMs: 10_000 })),
  );
  open.push(n);
  return n;
}
const reason = (err: unknown) => ((err as GatewayError).data as { reason?: string } | undefined)?.reason;

describe('network.forwardTo: one named upstream only', () => {
  it('sends the call to the named upstream, not the preferred one, and says it answered', async () => {
    const n = network();
    const before = [f1.hits('eth_newBlockFilter'), f2.hits('eth_newBlockFilter')];
    const { result, upstream } = await n.forwardTo('two', 'eth_newBlockFilter', [], ethMethods.eth_newBlockFilter);
    expect(upstream).toBe('two');
    expect(result).toMatch(/^0x/);
    expect([f1.hits('eth_newBlockFilter') - before[0]!, f2.hits('eth_newBlockFilter') - before[1]!]).toEqual([0, 1]);
    // and the filter is there: reading it on `two` works, on `one` (the same anvil here) too
    const read = await n.forwardTo('two', 'eth_getFilterChanges', [result], ethMethods.eth_getFilterChanges);
    expect(read.result).toEqual([]);
  });

  it('a failing upstream is not failed over, retried or hedged: its failure is the answer', async () => {
    const n = network();
    f2.script(() => ({ kind: 'reset' }));
    const before = f1.hits();
    const err = await n.forwardTo('two', 'eth_chainId', [], ethMethods.eth_chainId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).kind).toBe('UPSTREAM_UNAVAILABLE');
    expect(f1.hits()).toBe(before);
    expect(f2.hits('eth_chainId')).toBe(1);
    // a node's JSON-RPC answer comes back as it is
    f2.script(() => ({ kind: 'rpc-error', code: -32000, message: 'filter not found' }));
    const answered = await n
      .forwardTo('two', 'eth_getFilterChanges', ['0x1'], ethMethods.eth_getFilterChanges)
      .catch((e: unknown) => e);
    expect(answered).toBeInstanceOf(UpstreamRpcError);
    expect(answered).toMatchObject({ code: -32000, message: 'filter not found' });
  });

  it("goes through the upstream's breaker: open, nothing is sent", async () => {
    const n = network({ breakerFailures: 2, breakerOpenMs: 60_000 });
    f2.script(() => ({ kind: 'reset' }));
    for (let i = 0; i < 2; i++) await n.forwardTo('two', 'eth_chainId', [], ethMethods.eth_chainId).catch(() => {});
    expect(n.health().find((h) => h.name === 'two')!.breaker).toBe('open');
    const sent = f2.hits();
    const err = await n.forwardTo('two', 'eth_chainId', [], ethMethods.eth_chainId).catch((e: unknown) => e);
    expect(reason(err)).toBe('circuit-open');
    expect(f2.hits()).toBe(sent);
    // the other upstream is untouched
    expect((await n.forwardTo('one', 'eth_chainId', [], ethMethods.eth_chainId)).result).toBe('0x7a69');
  });

  it("applies the network's method timeout on that upstream", async () => {
    const n = network({ methodTimeoutsMs: { eth_chainId: 200 } });
    f2.script(() => ({ kind: 'slow', ms: 1_000 }));
    const started = Date.now();
    const err = await n.forwardTo('two', 'eth_chainId', [], ethMethods.eth_chainId).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(900);
    expect(reason(err)).toBe('timeout');
  });

  it('an upstream the network does not have: UPSTREAM_UNAVAILABLE, reason unknown-upstream, nothing sent', async () => {
    const n = network();
    const sent = f1.hits() + f2.hits();
    const err = await n.forwardTo('three', 'eth_chainId', [], ethMethods.eth_chainId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(reason(err)).toBe('unknown-upstream');
    expect(f1.hits() + f2.hits()).toBe(sent);
  });
});
