import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import {
  createRangeLimitedUpstream,
  type RangeLimitedUpstream,
} from '../../../test-support/createRangeLimitedUpstream.js';
import { postJson, rpc, startTestGateway, type TestGateway } from '../../../test-support/startTestGateway.js';
import { createTestKey, type TestKey } from '../../../test-support/testKeys.js';

// Real anvil with logs spread over ~1,300 blocks, behind providers that refuse wide eth_getLogs
// (geth's and Alchemy's words), and a network with a client-facing cap; keys on plans that
// replace the network's caps.
const EMITTER = `0x${'e1'.repeat(20)}`;
const OTHER_EMITTER = `0x${'e2'.repeat(20)}`;
const TOPIC = `0x${'a1'.repeat(32)}`;
const OTHER_TOPIC = `0x${'b2'.repeat(32)}`;
/** Runtime code that emits LOG1(topic) on any call. */
const emitter = (topic: string) => `0x7f${topic.slice(2)}60006000a100`;
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const hex = (n: number) => `0x${n.toString(16)}`;

let anvil: EmbeddedProcess;
let t: TestGateway;
let geth: RangeLimitedUpstream;
let learning: RangeLimitedUpstream;
let alchemy: RangeLimitedUpstream;
let plain: FaultUpstream;
let wide: TestKey;
let few: TestKey;
let capped: TestKey;
const url = (network: string, key: string) => `${t.gw.networks[network]!.http}/v3/${key}`;
const getLogs = (filter: Record<string, unknown>, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_getLogs',
  params: [filter],
});
const direct = async (filter: Record<string, unknown>) => {
  const r = await rpc(anvil.http, 'eth_getLogs', [filter]);
  expect(r.error).toBeUndefined();
  return r.result as { blockNumber: string; logIndex: string; blockHash: string; topics: string[] }[];
};
const emit = async (to: string) => {
  const r = await rpc(anvil.http, 'eth_sendTransaction', [{ from: FROM, to, gas: '0x186a0' }]);
  expect(r.error).toBeUndefined();
};

beforeAll(async () => {
  anvil = await startAnvil();
  await rpc(anvil.http, 'anvil_setCode', [EMITTER, emitter(TOPIC)]);
  await rpc(anvil.http, 'anvil_setCode', [OTHER_EMITTER, emitter(OTHER_TOPIC)]);
  // 40 blocks with a log (two in some), 30 empty blocks after each
  for (let i = 0; i < 40; i++) {
    await emit(EMITTER);
    if (i % 7 === 0) await emit(OTHER_EMITTER);
    await rpc(anvil.http, 'anvil_mine', [hex(30)]);
  }
  geth = await createRangeLimitedUpstream(anvil.http, 250, 'geth');
  learning = await createRangeLimitedUpstream(anvil.http, 170, 'geth');
  alchemy = await createRangeLimitedUpstream(anvil.http, 120, 'alchemy');
  plain = await createFaultUpstream(anvil.http);
  const policy = { hedge: false, exploreShare: 0, splitConcurrency: 3 };
  t = await startTestGateway({
    extra: {
      cache: { enabled: false },
      plans: {
        core: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000_000 },
        wide: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000_000, maxLogsBlockRange: 1_000_000 },
        few: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000_000, maxLogsResults: 3 },
      },
    },
    networks: () => [
      {
        name: 'limited',
        family: 'eth',
        pathPrefix: '/limited',
        upstreams: [{ name: 'geth-like', http: geth.url, getLogsMaxBlockRange: 250 }],
        policy,
      },
      {
        name: 'learning',
        family: 'eth',
        pathPrefix: '/learning',
        upstreams: [{ name: 'geth-unknown', http: learning.url }],
        policy,
      },
      {
        name: 'alchemy',
        family: 'eth',
        pathPrefix: '/alchemy',
        upstreams: [{ name: 'alchemy-like', http: alchemy.url }],
        policy,
      },
      {
        name: 'capped',
        family: 'eth',
        pathPrefix: '/capped',
        maxLogsBlockRange: 500,
        upstreams: [{ name: 'plain', http: plain.url }],
        policy,
      },
    ],
  });
  wide = await createTestKey(t.gw, { name: 'wide', plan: 'wide' });
  few = await createTestKey(t.gw, { name: 'few', plan: 'few' });
  capped = await createTestKey(t.gw, { name: 'capped' });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await Promise.all([geth?.close(), learning?.close(), alchemy?.close(), plain?.close()]);
  await anvil?.stop();
});

describe('eth_getLogs over a provider that takes 250 blocks (getLogsMaxBlockRange)', () => {
  it('splits a wide range into sub-ranges the provider takes, and answers exactly what the node has', async () => {
    const head = Number.parseInt((await rpc(anvil.http, 'eth_blockNumber')).result, 16);
    const filter = { fromBlock: '0x0', toBlock: hex(head) };
    const want = await direct(filter);
    expect(want.length).toBeGreaterThan(40);
    const refusedBefore = geth.refused();
    const answeredBefore = geth.answered.length;
    const r = await postJson(url('limited', t.key), getLogs(filter));
    expect(r.json.error).toBeUndefined();
    expect(r.json.result).toEqual(want);
    // ceil((head + 1) / 250) sub-ranges, none wider than 250, each block once, no refusal
    const sent = geth.answered.slice(answeredBefore);
    expect(sent.length).toBe(Math.ceil((head + 1) / 250));
    expect(Number(r.headers.get('x-nodegate-split'))).toBe(sent.length);
    expect(geth.refused()).toBe(refusedBefore);
    expect(sent.every((s) => s.to - s.from + 1 <= 250)).toBe(true);
    const covered = sent.map((s) => [s.from, s.to]).sort((a, b) => a[0]! - b[0]!);
    expect(covered[0]![0]).toBe(0);
    for (let i = 1; i < covered.length; i++) expect(covered[i]![0]).toBe(covered[i - 1]![1]! + 1);
    expect(covered.at(-1)![1]).toBe(head);
  });

  it('resolves tags once: "earliest" to "latest" with an address and topic filter equals the node\'s own answer', async () => {
    const filter = { fromBlock: 'earliest', toBlock: 'latest', address: EMITTER, topics: [TOPIC] };
    const r = await postJson(url('limited', t.key), getLogs(filter));
    expect(r.json.error).toBeUndefined();
    const want = await direct(filter);
    expect(want.length).toBe(40);
    expect(r.json.result).toEqual(want);
    expect(Number(r.headers.get('x-nodegate-split'))).toBeGreaterThan(1);
  });

  it('a range within the limit goes as it is (no split header)', async () => {
    const filter = { fromBlock: '0x1', toBlock: '0xfa' };
    const before = geth.answered.length;
    const r = await postJson(url('limited', t.key), getLogs(filter));
    expect(r.json.result).toEqual(await direct(filter));
    expect(r.headers.get('x-nodegate-split')).toBeNull();
    expect(geth.answered.length - before).toBe(1);
  });
});

describe('an upstream that refuses ("range too large"): bisected and retried, never the client\'s error', () => {
  it("geth's wording names the limit: learned, so the next wide call is split without a refusal", async () => {
    const filter = { fromBlock: '0x0', toBlock: hex(1000) };
    const want = await direct(filter);
    const r = await postJson(url('learning', t.key), getLogs(filter));
    expect(r.json.error).toBeUndefined();
    expect(r.json.result).toEqual(want);
    expect(learning.refused()).toBeGreaterThanOrEqual(1);
    expect(learning.answered.every((s) => s.to - s.from + 1 <= 170)).toBe(true);
    const refused = learning.refused();
    const again = await postJson(url('learning', t.key), getLogs({ fromBlock: '0x1', toBlock: hex(1001) }));
    expect(again.json.result).toEqual(await direct({ fromBlock: '0x1', toBlock: hex(1001) }));
    expect(learning.refused()).toBe(refused);
    expect(Number(again.headers.get('x-nodegate-split'))).toBe(Math.ceil(1001 / 170));
  });

  it("Alchemy's wording suggests a range: cut there, the answer is the node's", async () => {
    const filter = { fromBlock: '0x10', toBlock: hex(1000), topics: [[TOPIC, OTHER_TOPIC]] };
    const want = await direct(filter);
    const r = await postJson(url('alchemy', t.key), getLogs(filter));
    expect(r.json.error).toBeUndefined();
    expect(r.json.result).toEqual(want);
    expect(alchemy.refused()).toBeGreaterThanOrEqual(1);
    expect(alchemy.answered.every((s) => s.to - s.from + 1 <= 120)).toBe(true);
    expect(Number(r.headers.get('x-nodegate-split'))).toBeGreaterThan(2);
  });
});

describe('a node that refuses every range', () => {
  it('is bisected a bounded number of times, then its refusal is the answer', async () => {
    plain.script((m) =>
      m === 'eth_getLogs'
        ? { kind: 'rpc-error', code: -32000, message: 'query returned too many results' }
        : { kind: 'pass' },
    );
    try {
      const before = plain.hits('eth_getLogs');
      const r = await postJson(url('capped', wide.key), getLogs({ fromBlock: '0x0', toBlock: hex(1000) }));
      expect(r.json.error).toEqual({ code: -32000, message: 'query returned too many results' });
      const sent = plain.hits('eth_getLogs') - before;
      // the call as it is, then at most 64 refusals bisected (two halves each)
      expect(sent).toBeGreaterThan(5);
      expect(sent).toBeLessThanOrEqual(1 + 2 * 65);
    } finally {
      plain.script(() => ({ kind: 'pass' }));
    }
  });
});

describe('the client-facing caps (maxLogsBlockRange, maxLogsResults), per plan', () => {
  it('a range over the network cap is refused before any upstream is asked, with the range to retry with', async () => {
    const before = plain.hits('eth_getLogs');
    const r = await postJson(url('capped', capped.key), getLogs({ fromBlock: '0x5', toBlock: 'latest' }));
    expect(r.status).toBe(200);
    expect(r.json.error.code).toBe(-32005);
    expect(r.json.error.message).toContain('[0x5, 0x1f8]');
    expect(r.json.error.data).toEqual({ from: '0x5', to: '0x1f8', limit: 500 });
    expect(plain.hits('eth_getLogs')).toBe(before);
    // the range it names is answered
    const retry = await postJson(url('capped', capped.key), getLogs({ fromBlock: '0x5', toBlock: '0x1f8' }));
    expect(retry.json.result).toEqual(await direct({ fromBlock: '0x5', toBlock: '0x1f8' }));
  });

  it("two keys at once: the plan's cap replaces the network's for its keys only", async () => {
    const filter = { fromBlock: '0x0', toBlock: hex(1100) };
    const [refused, answered] = await Promise.all([
      postJson(url('capped', capped.key), getLogs(filter, 'c')),
      postJson(url('capped', wide.key), getLogs(filter, 'w')),
    ]);
    expect(refused.json.id).toBe('c');
    expect(refused.json.error.code).toBe(-32005);
    expect(answered.json.id).toBe('w');
    expect(answered.json.error).toBeUndefined();
    expect(answered.json.result).toEqual(await direct(filter));
    // and the other way round: the wide key's answer did not lift the capped key's cap
    const again = await postJson(url('capped', capped.key), getLogs(filter));
    expect(again.json.error.data.to).toBe(hex(499));
  });

  it('more logs than the plan allows: -32005 with a range that fits, split or not', async () => {
    for (const network of ['limited', 'capped']) {
      const filter = { fromBlock: '0x0', toBlock: hex(450) };
      const r = await postJson(url(network, few.key), getLogs(filter));
      expect(r.json.error.code).toBe(-32005);
      expect(r.json.error.message).toMatch(
        /^query returned more than 3 results\. Try with this block range \[0x0, 0x[0-9a-f]+\]\.$/,
      );
      const fit = { fromBlock: r.json.error.data.from, toBlock: r.json.error.data.to };
      const logs = await direct(fit);
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.length).toBeLessThanOrEqual(3);
      const ok = await postJson(url(network, few.key), getLogs(fit));
      expect(ok.json.result).toEqual(logs);
      // another key on the network's default (10,000) gets them all
      expect((await postJson(url(network, t.key), getLogs(filter))).json.result).toEqual(await direct(filter));
    }
  });
});

describe('a reorganisation during a split', () => {
  it('is never mixed into one answer: the split is made again on the new chain', async () => {
    const snapshot = (await rpc(anvil.http, 'evm_snapshot')).result as string;
    for (let i = 0; i < 3; i++) {
      await emit(EMITTER);
      await rpc(anvil.http, 'anvil_mine', [hex(25)]);
    }
    const head = Number.parseInt((await rpc(anvil.http, 'eth_blockNumber')).result, 16);
    // three sub-ranges of 250; the chain is replaced (from 78 blocks below the head: another
    // topic, a longer chain) after the tip's sub-range was answered from the old one, while the
    // first one waits
    const filter = { fromBlock: hex(head - 600), toBlock: hex(head) };
    const old = await direct(filter);
    const answeredBefore = geth.answered.length;
    geth.beforeGetLogs(async (n) => {
      if (n !== answeredBefore + 1) return;
      geth.beforeGetLogs(undefined);
      const deadline = Date.now() + 5_000;
      while (geth.answered.length < answeredBefore + 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300));
      await rpc(anvil.http, 'evm_revert', [snapshot]);
      await emit(OTHER_EMITTER);
      await rpc(anvil.http, 'anvil_mine', [hex(80)]);
    });
    const r = await postJson(url('limited', t.key), getLogs(filter));
    expect(r.json.error).toBeUndefined();
    const now = await direct(filter);
    expect(now).not.toEqual(old);
    expect(r.json.result).toEqual(now);
    // the old chain's last logs are nowhere in the answer
    const hashes = new Set(now.map((l) => l.blockHash));
    for (const l of r.json.result as { blockHash: string }[]) expect(hashes.has(l.blockHash)).toBe(true);
    expect(Number(r.headers.get('x-nodegate-split'))).toBeGreaterThan(3);
  });
});
