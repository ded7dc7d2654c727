import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { GatewayError } from '../../../errors/GatewayError.js';
import { ethFamily } from '../../../families/eth/ethFamily.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { createPrunedUpstream, type PrunedUpstream } from '../../../test-support/createPrunedUpstream.js';
import { createHttpUpstream } from '../../../upstream/createHttpUpstream.js';
import { createNetwork, type Network } from '../../createNetwork.js';

// Block availability over a real anvil 100 blocks high: pruned nodes are proxies in front of it
// that answer as geth does below their window (createPrunedUpstream); the archive is the anvil,
// behind a fault upstream that answers 150 ms late so the routing prefers the pruned nodes.
let anvil: EmbeddedProcess;
let slowArchive: FaultUpstream;
let pruned16: PrunedUpstream;
let pruned8: PrunedUpstream;
const open: Network[] = [];
const addr = `0x${'ab'.repeat(20)}`;
const getBalance = (n: Network, block: string) => n.forward('eth_getBalance', [addr, block], ethMethods.eth_getBalance);

beforeAll(async () => {
  anvil = await startAnvil();
  await fetch(anvil.http, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x64'] }),
  });
  [pruned16, pruned8, slowArchive] = await Promise.all([
    createPrunedUpstream(anvil.http, 16),
    createPrunedUpstream(anvil.http, 8),
    createFaultUpstream(anvil.http),
  ]);
  slowArchive.script(() => ({ kind: 'slow', ms: 150 }));
});
afterEach(async () => {
  for (const n of open.splice(0)) {
    await n.close();
    await Promise.all(n.upstreams.map((u) => u.close()));
  }
});
afterAll(async () => {
  await Promise.all([pruned16?.close(), pruned8?.close(), slowArchive?.close()]);
  await anvil?.stop();
});

/** A network over these upstream rows (the first is the preferred one), no background probe. */
function network(upstreams: Record<string, unknown>[], extra: Record<string, unknown> = {}): Network {
  const settings = validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams,
        policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: false },
        ...extra,
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
const blocksOf = (n: Network, name: string) => n.health().find((h) => h.name === name)!.blocks;

describe('block availability', () => {
  it('measured at start: the pruned node keeps its latest blocks, the anvil is an archive; an old block goes to the archive only', async () => {
    const n = network([
      { name: 'full', http: pruned16.url },
      { name: 'archive', http: slowArchive.url },
    ]);
    await n.probeNow();
    const full = blocksOf(n, 'full')!;
    expect(full).toMatchObject({ archive: false, source: 'probe', head: 100 });
    // 16 kept, less the margin for a head that moves while it is measured
    expect(full.historyBlocks).toBe(14);
    expect(full.oldest).toBe(87);
    expect(blocksOf(n, 'archive')).toEqual({ archive: true, oldest: 0, source: 'probe' });

    const refusedBefore = pruned16.refused();
    const hitsBefore = pruned16.hits('eth_getBalance');
    const old = await getBalance(n, '0x5');
    expect(old).toMatchObject({ result: '0x0', upstream: 'archive', attempts: 1 });
    // the pruned node was never asked for it
    expect(pruned16.hits('eth_getBalance')).toBe(hitsBefore);
    expect(pruned16.refused()).toBe(refusedBefore);
    // a recent block and the head stay with the preferred upstream
    expect(await getBalance(n, '0x5f')).toMatchObject({ upstream: 'full' });
    expect(await getBalance(n, 'latest')).toMatchObject({ upstream: 'full' });
    // methods that read no state (blocks are kept by pruned nodes) are not narrowed
    const block = await n.forward('eth_getBlockByNumber', ['0x5', false], ethMethods.eth_getBlockByNumber);
    expect(block.upstream).toBe('full');
  });

  it('told by the config (archive, historyBlocks): nothing is measured', async () => {
    const n = network([
      { name: 'full', http: pruned16.url, historyBlocks: 16 },
      { name: 'archive', http: slowArchive.url, archive: true },
    ]);
    const before = pruned16.hits('eth_getTransactionCount');
    await n.probeNow();
    expect(pruned16.hits('eth_getTransactionCount')).toBe(before);
    expect(blocksOf(n, 'full')).toEqual({ archive: false, oldest: 85, head: 100, historyBlocks: 16, source: 'config' });
    expect(blocksOf(n, 'archive')).toMatchObject({ archive: true, source: 'config' });
    expect(await getBalance(n, '0x54')).toMatchObject({ upstream: 'archive' });
    expect(await getBalance(n, '0x55')).toMatchObject({ upstream: 'full' });
  });

  it('no upstream holds the block: BLOCK_UNAVAILABLE names the block and every window, and nothing is asked', async () => {
    const n = network([
      { name: 'full-a', http: pruned16.url },
      { name: 'full-b', http: pruned8.url },
    ]);
    await n.probeNow();
    const before = pruned16.hits() + pruned8.hits();
    const err = await getBalance(n, '0x5').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    const e = err as GatewayError;
    expect(e.kind).toBe('BLOCK_UNAVAILABLE');
    expect(e.code).toBe(-32000);
    expect(e.message).toBe(
      'block 5 (0x5) is not available on network chain: no upstream holds its state (full-a: blocks 87-100, the latest 14; full-b: blocks 95-100, the latest 6); ask for a more recent block',
    );
    expect(e.data).toMatchObject({
      network: 'chain',
      block: '0x5',
      reason: 'block-unavailable',
      windows: [
        { upstream: 'full-a', oldest: 87, historyBlocks: 14 },
        { upstream: 'full-b', oldest: 95, historyBlocks: 6 },
      ],
    });
    expect(pruned16.hits() + pruned8.hits()).toBe(before);
    // `earliest` is block 0
    await expect(getBalance(n, 'earliest')).rejects.toMatchObject({ kind: 'BLOCK_UNAVAILABLE' });
    // a block one of them holds is served
    expect(await getBalance(n, '0x5a')).toMatchObject({ upstream: 'full-a' });
  });

  it('a window the config overstates is corrected by the answers: the next old block skips that node', async () => {
    const n = network([
      { name: 'full', http: pruned16.url, archive: true },
      { name: 'archive', http: slowArchive.url, archive: true },
    ]);
    await n.probeNow();
    const before = pruned16.refused();
    expect(await getBalance(n, '0x5')).toMatchObject({ upstream: 'archive', attempts: 2 });
    expect(pruned16.refused()).toBe(before + 1);
    expect(blocksOf(n, 'full')).toMatchObject({ archive: false, oldest: 6, historyBlocks: 95, source: 'answer' });
    expect(await getBalance(n, '0x3')).toMatchObject({ upstream: 'archive', attempts: 1 });
    expect(pruned16.refused()).toBe(before + 1);
    // its breaker is not held responsible
    expect(n.health().find((h) => h.name === 'full')!.breaker).toBe('closed');
  });

  it('measured again after a recovery: a node that now keeps every block is an archive', async () => {
    const front = await createFaultUpstream(pruned16.url);
    try {
      const n = network([
        { name: 'full', http: front.url },
        { name: 'archive', http: slowArchive.url },
      ]);
      await n.probeNow();
      expect(blocksOf(n, 'full')).toMatchObject({ archive: false, historyBlocks: 14, source: 'probe' });
      // it goes away, and comes back holding every block (resynced as an archive)
      front.script(() => ({ kind: 'html', status: 502 }));
      await n.probeNow();
      pruned16.keep = 1_000;
      front.script(() => ({ kind: 'pass' }));
      await n.probeNow();
      expect(blocksOf(n, 'full')).toEqual({ archive: true, oldest: 0, source: 'probe' });
      expect(await getBalance(n, '0x5')).toMatchObject({ upstream: 'full' });
    } finally {
      pruned16.keep = 16;
      await front.close();
    }
  });

  it("every upstream answers it lacks the state (windows not known yet): the client gets BLOCK_UNAVAILABLE, not the node's text", async () => {
    const n = network([
      { name: 'full-a', http: pruned16.url },
      { name: 'full-b', http: pruned8.url },
    ]);
    const err = (await getBalance(n, '0x5').catch((e: unknown) => e)) as GatewayError;
    expect(err.kind).toBe('BLOCK_UNAVAILABLE');
    expect(err.message).not.toMatch(/trie/);
    expect(err.message).toMatch(
      /^block 5 \(0x5\) is not available on network chain: .*full-a: not known; full-b: not known/,
    );
  });

  it('under a consensus rule too: no holder is BLOCK_UNAVAILABLE without asking, and so is every participant lacking the state', async () => {
    const rule = { consensus: { eth_getBalance: { participants: 2, agree: 2 } } };
    const upstreams = [
      { name: 'full-a', http: pruned16.url },
      { name: 'full-b', http: pruned8.url },
    ];
    // windows not known: both asked, both lack it
    const unknown = network(upstreams, rule);
    const asked = (await getBalance(unknown, '0x5').catch((e: unknown) => e)) as GatewayError;
    expect(asked.kind).toBe('BLOCK_UNAVAILABLE');
    expect(asked.message).not.toMatch(/trie/);
    // windows known: nothing asked
    const known = network(upstreams, rule);
    await known.probeNow();
    const before = pruned16.hits() + pruned8.hits();
    await expect(getBalance(known, '0x5')).rejects.toMatchObject({ kind: 'BLOCK_UNAVAILABLE' });
    expect(pruned16.hits() + pruned8.hits()).toBe(before);
    // a block both hold is agreed on
    expect(await getBalance(known, '0x62')).toMatchObject({ result: '0x0', attempts: 2 });
  });
});
