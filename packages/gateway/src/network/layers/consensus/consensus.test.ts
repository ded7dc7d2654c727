import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { GatewayError } from '../../../errors/GatewayError.js';
import { ethFamily } from '../../../families/eth/ethFamily.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { createLyingUpstream, type LyingUpstream } from '../../../test-support/createLyingUpstream.js';
import { until } from '../../../test-support/until.js';
import { createHttpUpstream } from '../../../upstream/createHttpUpstream.js';
import { createNetwork, type Network, type NetworkDeps } from '../../createNetwork.js';

// Consensus over one real anvil seen through three upstreams: two honest fault proxies and one
// that lies when told to (createLyingUpstream: a balance one wei off, another block hash, a head
// ahead). The liar is listed first, so without consensus it would be asked first.
let anvil: EmbeddedProcess;
let honest1: FaultUpstream;
let honest2: FaultUpstream;
let liar: LyingUpstream;
const open: Network[] = [];
const rich = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TRUTH = '0x21e19e0c9bab2400000';
const LIE = '0x21e19e0c9bab2400001';

beforeAll(async () => {
  anvil = await startAnvil();
  [honest1, honest2, liar] = await Promise.all([
    createFaultUpstream(anvil.http),
    createFaultUpstream(anvil.http),
    createLyingUpstream(anvil.http),
  ]);
});
afterEach(async () => {
  liar.lies = {};
  for (const n of open.splice(0)) {
    await n.close();
    await Promise.all(n.upstreams.map((u) => u.close()));
  }
});
afterAll(async () => {
  await Promise.all([honest1?.close(), honest2?.close(), liar?.close()]);
  await anvil?.stop();
});

function network(consensus: Record<string, unknown>, deps: NetworkDeps = {}): Network {
  const settings = validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams: [
          { name: 'liar', http: liar.url },
          { name: 'honest-1', http: honest1.url },
          { name: 'honest-2', http: honest2.url },
        ],
        policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: false },
        consensus,
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
const balance = (n: Network) => n.forward('eth_getBalance', [rich, 'latest'], ethMethods.eth_getBalance);
const block = (n: Network) => n.forward('eth_getBlockByNumber', ['0x0', false], ethMethods.eth_getBlockByNumber);

describe('consensus', () => {
  it('2 of 3 agree: the liar is outvoted, whoever answers first; other methods are not asked of several', async () => {
    // (the liar never sits out here: see below)
    const n = network({ eth_getBalance: { participants: 3, agree: 2, sitOutAfter: 1_000 } });
    liar.lies = { balance: true };
    for (let i = 0; i < 5; i++) {
      const r = await balance(n);
      expect(r.result).toBe(TRUTH);
      expect(['honest-1', 'honest-2']).toContain(r.upstream);
      // each participant's request, though the answer came when two agreed
      expect(r.attempts).toBe(3);
    }
    // without a rule, the method goes to one upstream
    const before = liar.hits() + honest1.hits() + honest2.hits();
    await n.forward('eth_chainId', [], ethMethods.eth_chainId);
    expect(liar.hits() + honest1.hits() + honest2.hits() - before).toBe(1);
  });

  it('a block hash that differs is a dispute (onDispute: error → -32603 CONSENSUS_DISPUTE naming who said what) unless the field is ignored', async () => {
    liar.lies = { blockHash: true };
    const strict = network({ eth_getBlockByNumber: { participants: 3, agree: 3 } });
    const err = (await block(strict).catch((e: unknown) => e)) as GatewayError;
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.kind).toBe('CONSENSUS_DISPUTE');
    expect(err.code).toBe(-32603);
    expect(err.message).toBe(
      'no consensus for eth_getBlockByNumber on network chain: the upstreams disagree (3 of 3 must agree); retry',
    );
    const answers = (err.data as { answers: { upstreams: string[] }[] }).answers.map((a) => [...a.upstreams].sort());
    expect(answers.sort()).toEqual([['honest-1', 'honest-2'], ['liar']]);
    expect(strict.counters().consensusDisputes).toBe(1);

    const lenient = network({
      'eth_getBlockBy*': { participants: 3, agree: 3, ignoreFields: { 'eth_getBlockBy*': ['hash', 'parentHash'] } },
    });
    const r = await block(lenient);
    expect((r.result as { number: string }).number).toBe('0x0');
    expect(lenient.counters().consensusDisputes).toBe(0);
  });

  it('onDispute mostCommon gives the answer most gave; bestHead the answer of the upstream at the highest head', async () => {
    liar.lies = { balance: true, headAhead: 5 };
    const common = network({ eth_getBalance: { participants: 3, agree: 3, onDispute: 'mostCommon' } });
    await common.probeNow();
    expect((await balance(common)).result).toBe(TRUTH);
    expect(common.counters().consensusDisputes).toBe(1);

    const head = network({ eth_getBalance: { participants: 3, agree: 3, onDispute: 'bestHead' } });
    await head.probeNow();
    const r = await balance(head);
    expect(r).toMatchObject({ result: LIE, upstream: 'liar' });
  });

  it('an upstream on the losing side sitOutAfter times in a row sits out sitOutMs: no reads at all, /health and the counter say so; then it is back', async () => {
    let t = 1_000_000;
    const n = network(
      { eth_getBalance: { participants: 3, agree: 2, sitOutAfter: 2, sitOutMs: 30_000 } },
      { now: () => t },
    );
    liar.lies = { balance: true };
    const liarHealth = () => n.health().find((h) => h.name === 'liar')!;
    const asked = liar.hits('eth_getBalance');
    await balance(n);
    // answers are judged once every participant answered (the answer may come before)
    await until(async () => liar.hits('eth_getBalance') === asked + 1, 'the liar to be asked');
    await new Promise((r) => setTimeout(r, 50));
    expect(liarHealth().sittingOut).toBeUndefined();
    await balance(n);
    const sitting = await until(async () => liarHealth().sittingOut, 'the liar to sit out');
    expect(sitting).toEqual({ until: new Date(t + 30_000).toISOString(), disputesLost: 2 });
    expect(n.counters().consensusSitOuts).toBe(1);

    const before = liar.hits();
    for (let i = 0; i < 3; i++) expect((await balance(n)).result).toBe(TRUTH);
    // nor any other read, though it is listed first
    for (let i = 0; i < 3; i++)
      expect((await n.forward('eth_chainId', [], ethMethods.eth_chainId)).upstream).not.toBe('liar');
    expect(liar.hits()).toBe(before);

    t += 30_001;
    liar.lies = {};
    expect((await balance(n)).result).toBe(TRUTH);
    await until(async () => liar.hits() > before, 'the liar to be asked again');
    expect(liarHealth().sittingOut).toBeUndefined();
  });

  it('too few upstreams answer to reach agree: onDispute error says so', async () => {
    const n = network({ eth_getBalance: { participants: 3, agree: 3 } });
    honest2.script(() => ({ kind: 'html', status: 502 }));
    try {
      const err = (await balance(n).catch((e: unknown) => e)) as GatewayError;
      expect(err.kind).toBe('CONSENSUS_DISPUTE');
      expect(err.message).toBe(
        'no consensus for eth_getBalance on network chain: only 2 of 3 participants answered (3 of 3 must agree); retry',
      );
    } finally {
      honest2.script(() => ({ kind: 'pass' }));
    }
  });
});
