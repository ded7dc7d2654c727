import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type Fault, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { type PolicyGateway, startPolicyGateway } from '../test-support/startPolicyGateway.js';
import { rpc } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// "No such block" answers against the heads: two real anvils (one mined further than the other)
// behind fault proxies that word a block beyond the node's head as geth does (-32000 "header not
// found"), a gateway in front of both.
let lo: Awaited<ReturnType<typeof startAnvil>>;
let hi: Awaited<ReturnType<typeof startAnvil>>;
let fLo: FaultUpstream;
let fHi: FaultUpstream;
let t: PolicyGateway;
let url: string;
let otherUrl: string;

const pass = (): Fault => ({ kind: 'pass' });
// the upstream ahead is slow, so the one behind keeps the routing and its answers are the ones tested
const slow = (): Fault => ({ kind: 'slow', ms: 150 });
const addr = `0x${'ab'.repeat(20)}`;
const upstreams = async () => (await t.health()).mainnet.upstreams;

beforeAll(async () => {
  [lo, hi] = await Promise.all([startAnvil(), startAnvil()]);
  [fLo, fHi] = await Promise.all([
    createFaultUpstream(lo.http, { gethErrors: true }),
    createFaultUpstream(hi.http, { gethErrors: true }),
  ]);
  fHi.script(slow);
  t = await startPolicyGateway([
    {
      name: 'mainnet',
      family: 'eth',
      pathPrefix: '/mainnet',
      upstreams: [
        { name: 'behind', http: fLo.url },
        { name: 'ahead', http: fHi.url },
      ],
      // no hedging nor exploration: the counts below are exact
      policy: { probeIntervalMs: 500, hedge: false, breakerFailures: 3, exploreShare: 0 },
    },
  ]);
  url = t.url('mainnet');
  otherUrl = t.url('mainnet', (await createTestKey(t.gw, { plan: 'developer' })).key);
});

afterAll(async () => {
  await t?.stop();
  await Promise.all([fLo?.close(), fHi?.close()]);
  await Promise.all([lo?.stop(), hi?.stop()]);
});

describe('"no such block" answers and the heads', () => {
  it('a lagging upstream\'s "header not found" for a block the other upstream has fails over to it', async () => {
    // both at height 0 so far: the fast one ("behind" soon) has the routing
    for (let i = 0; i < 10; i++) expect((await rpc(url, 'eth_getBalance', [addr, 'latest'])).result).toBe('0x0');
    await rpc(hi.http, 'anvil_mine', ['0x2']);
    await until(async () => (await upstreams()).find((u: any) => u.name === 'behind').lag === 2, 'the lag to show');
    const before = { lo: fLo.hits('eth_getBalance'), hi: fHi.hits('eth_getBalance') };
    const direct = await rpc(hi.http, 'eth_getBalance', [addr, '0x2']);
    const r = await rpc(url, 'eth_getBalance', [addr, '0x2']);
    expect(r.error).toBeUndefined();
    expect(r.result).toBe(direct.result);
    // the node behind was asked first and said "header not found"; the one ahead answered
    expect(fLo.hits('eth_getBalance') - before.lo).toBe(1);
    expect(fHi.hits('eth_getBalance') - before.hi).toBe(1);
    // and beyond the best head (2) it is the client's answer again
    const beyond = await rpc(url, 'eth_getBalance', [addr, '0x3']);
    expect(beyond.error).toEqual({ code: -32000, message: 'header not found' });
  });

  it("a burst of requests for a block beyond every head passes the node's answer through and opens no breaker", async () => {
    const before = fLo.hits('eth_getBalance') + fHi.hits('eth_getBalance');
    // each a block of its own (identical calls in flight would share one upstream call)
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => rpc(url, 'eth_getBalance', [addr, `0x${(0xffffffff - i).toString(16)}`])),
    );
    for (const a of answers) expect(a.error).toEqual({ code: -32000, message: 'header not found' });
    // each asked one upstream once: the answer is the client's, not a reason to try the others
    expect(fLo.hits('eth_getBalance') + fHi.hits('eth_getBalance') - before).toBe(100);
    for (const u of await upstreams()) expect(u.breaker, u.name).toBe('closed');
    // other clients are served as before
    const served = await rpc(otherUrl, 'eth_getBalance', [addr, 'latest']);
    expect(served.result).toBe('0x0');
  });

  it('"missing trie node" from every upstream: the client gets BLOCK_UNAVAILABLE naming the block, not the node\'s text; each upstream learns it and is asked once; no breaker opens', async () => {
    const trie = (m: string): Fault =>
      m === 'eth_getStorageAt'
        ? { kind: 'rpc-error', code: -32000, message: 'missing trie node 5e3c (path )' }
        : pass();
    fLo.script(trie);
    fHi.script(trie);
    try {
      // both above block 0, and the gateway knows their heads (a refusal below a head teaches the window)
      await Promise.all([rpc(lo.http, 'anvil_mine', ['0x1']), rpc(hi.http, 'anvil_mine', ['0x1'])]);
      await until(
        async () => (await upstreams()).every((u: { head?: number }) => (u.head ?? 0) > 0),
        'both heads above 0',
      );
      const before = fLo.hits('eth_getStorageAt') + fHi.hits('eth_getStorageAt');
      for (let i = 0; i < 20; i++) {
        const r = await rpc(url, 'eth_getStorageAt', [addr, '0x0', '0x0']);
        expect(r.error.code).toBe(-32000);
        expect(r.error.message).toMatch(
          /^block 0 \(0x0\) is not available on network mainnet: no upstream holds its state \(behind: blocks 1-\d+, the latest \d+; ahead: blocks 1-\d+, the latest \d+\)/,
        );
        expect(r.error.data).toMatchObject({ network: 'mainnet', block: '0x0', reason: 'block-unavailable' });
      }
      // the first call tried each upstream (an archive might have had it); their answers taught
      // their windows, so the next ones were refused without asking
      expect(fLo.hits('eth_getStorageAt') + fHi.hits('eth_getStorageAt') - before).toBe(2);
      const health = await upstreams();
      for (const u of health) {
        expect(u.breaker, u.name).toBe('closed');
        expect(u.blocks, u.name).toMatchObject({ archive: false, oldest: 1, source: 'answer' });
      }
      expect((await rpc(otherUrl, 'eth_chainId')).result).toBe('0x7a69');
    } finally {
      fLo.script(pass);
      fHi.script(slow);
    }
  });
});
