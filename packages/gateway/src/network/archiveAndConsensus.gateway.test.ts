import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { createLyingUpstream, type LyingUpstream } from '../test-support/createLyingUpstream.js';
import { metricValue, parseMetrics } from '../test-support/metricSamples.js';
import { createPrunedUpstream, type PrunedUpstream } from '../test-support/createPrunedUpstream.js';
import { type PolicyGateway, startPolicyGateway } from '../test-support/startPolicyGateway.js';
import { postJson, rpc } from '../test-support/startTestGateway.js';
import { until } from '../test-support/until.js';

// Block availability and consensus as a client and an operator see them: a gateway over a real
// anvil 64 blocks high behind a pruned proxy (geth's answers below its latest 16 blocks), a
// slow archive proxy, and a lying proxy among two honest ones.
let anvil: EmbeddedProcess;
let pruned: PrunedUpstream;
let archive: FaultUpstream;
let honest1: FaultUpstream;
let honest2: FaultUpstream;
let liar: LyingUpstream;
let t: PolicyGateway;
const rich = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TRUTH = '0x21e19e0c9bab2400000';

beforeAll(async () => {
  anvil = await startAnvil();
  await rpc(anvil.http, 'anvil_mine', ['0x40']);
  [pruned, archive, honest1, honest2, liar] = await Promise.all([
    createPrunedUpstream(anvil.http, 16),
    createFaultUpstream(anvil.http),
    createFaultUpstream(anvil.http),
    createFaultUpstream(anvil.http),
    createLyingUpstream(anvil.http, { balance: true }),
  ]);
  archive.script(() => ({ kind: 'slow', ms: 30 }));
  const policy = { probeIntervalMs: 600_000, hedge: false, exploreShare: 0 };
  t = await startPolicyGateway([
    {
      name: 'mainnet',
      family: 'eth',
      pathPrefix: '/mainnet',
      upstreams: [
        { name: 'full', http: pruned.url },
        { name: 'archive', http: archive.url },
      ],
      policy,
    },
    {
      name: 'pruned',
      family: 'eth',
      pathPrefix: '/pruned',
      upstreams: [{ name: 'full-only', http: pruned.url, historyBlocks: 16 }],
      policy,
    },
    {
      name: 'voted',
      family: 'eth',
      pathPrefix: '/voted',
      upstreams: [
        { name: 'liar', http: liar.url },
        { name: 'honest-1', http: honest1.url },
        { name: 'honest-2', http: honest2.url },
      ],
      policy,
      consensus: { eth_getBalance: { participants: 3, agree: 2, sitOutAfter: 2, sitOutMs: 60_000 } },
    },
  ]);
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([pruned, archive, honest1, honest2, liar].map((u) => u?.close()));
  await anvil?.stop();
});

const metrics = async () =>
  parseMetrics(
    await (await fetch(`${t.gw.url}/metrics`, { headers: { authorization: `Bearer ${t.gw.admin.token}` } })).text(),
  );

describe('block availability through the gateway', () => {
  it('/health shows each window; an old block is answered by the archive, and the client never sees the pruned node', async () => {
    const ups = (await t.health()).mainnet.upstreams;
    const full = ups.find((u: { name: string }) => u.name === 'full');
    expect(full.blocks).toMatchObject({ archive: false, head: 64, oldest: 51, historyBlocks: 14, source: 'probe' });
    expect(ups.find((u: { name: string }) => u.name === 'archive').blocks).toEqual({
      archive: true,
      oldest: 0,
      source: 'probe',
    });
    const refused = pruned.refused();
    const r = await postJson(t.url('mainnet'), {
      jsonrpc: '2.0',
      id: 7,
      method: 'eth_getBalance',
      params: [rich, '0x2'],
    });
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 7, result: TRUTH });
    expect(r.headers.get('x-nodegate-upstream')).toBe('archive');
    expect(r.headers.get('x-nodegate-attempts')).toBe('1');
    expect(pruned.refused()).toBe(refused);
  });

  it('no upstream holds it: -32000 naming the block and the window, on HTTP 200, in a batch item too', async () => {
    const r = await postJson(t.url('pruned'), [
      { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [rich, '0x2'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [rich, 'latest'] },
    ]);
    expect(r.status).toBe(200);
    const [old, latest] = r.json;
    expect(old.error).toEqual({
      code: -32000,
      message:
        'block 2 (0x2) is not available on network pruned: no upstream holds its state (full-only: blocks 49-64, the latest 16); ask for a more recent block',
      data: {
        network: 'pruned',
        block: '0x2',
        reason: 'block-unavailable',
        windows: [{ upstream: 'full-only', archive: false, oldest: 49, head: 64, historyBlocks: 16, source: 'config' }],
      },
    });
    expect(JSON.stringify(old)).not.toMatch(/trie|127\.0\.0\.1/);
    expect(latest.result).toBe(TRUTH);
  });
});

describe('consensus through the gateway', () => {
  it('the liar is outvoted, then sits out: /health and /metrics say so', async () => {
    for (let i = 0; i < 2; i++)
      expect((await rpc(t.url('voted'), 'eth_getBalance', [rich, 'latest'])).result).toBe(TRUTH);
    const liarHealth = await until(async () => {
      const u = (await t.health()).voted.upstreams.find((x: { name: string }) => x.name === 'liar');
      return u.sittingOut === undefined ? undefined : u;
    }, 'the liar to sit out');
    expect(liarHealth.sittingOut.disputesLost).toBe(2);
    const m = await metrics();
    expect(metricValue(m, 'nodegate_consensus_sit_outs_total', { network: 'voted' })).toBe(1);
    expect(metricValue(m, 'nodegate_consensus_disputes_total', { network: 'voted' })).toBe(0);
    expect(metricValue(m, 'nodegate_upstream_sitting_out', { network: 'voted', upstream: 'liar' })).toBe(1);
    expect(metricValue(m, 'nodegate_upstream_sitting_out', { network: 'voted', upstream: 'honest-1' })).toBe(0);
    // it takes no reads now, with or without a rule
    const before = liar.hits();
    expect((await rpc(t.url('voted'), 'eth_getBalance', [rich, 'latest'])).result).toBe(TRUTH);
    expect((await rpc(t.url('voted'), 'eth_chainId')).result).toBe('0x7a69');
    expect(liar.hits()).toBe(before);
  });
});
