import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startAnvil } from '../embedded/startAnvil.js';
import { ethFamily } from '../families/eth/ethFamily.js';
import { createNetwork, type Network } from '../network/createNetwork.js';
import { rpc } from '../test-support/startTestGateway.js';
import { createHttpUpstream } from '../upstream/createHttpUpstream.js';
import type { ReadBlock } from './BlockReader.js';
import { createHeadTracker, type HeadListener, type HeadTracker } from './createHeadTracker.js';
import { ethBlockReader } from './ethBlockReader.js';

// The head tracker on a real anvil, polled by hand (refresh) so each test decides what it sees.
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let network: Network;
let tracker: HeadTracker;
const replaced: string[] = [];

const blockAt = async (n: number) =>
  (await rpc(anvil.http, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result;
const head = async () => Number.parseInt((await rpc(anvil.http, 'eth_blockNumber')).result, 16);

beforeAll(async () => {
  anvil = await startAnvil();
  await rpc(anvil.http, 'anvil_mine', ['0x80']);
  const settings = validateConfig({
    networks: [
      { name: 'chain', family: 'eth', pathPrefix: '/chain', upstreams: [{ name: 'anvil', http: anvil.http }] },
    ],
  }).networks[0]!;
  network = createNetwork(settings, ethFamily, [
    createHttpUpstream({ name: 'anvil', http: anvil.http, timeoutMs: 10_000 }),
  ]);
  tracker = createHeadTracker(network, {
    intervalMs: 3_600_000,
    onReorg: (gone) => replaced.push(...gone),
    onHead: () => undefined,
  });
  await tracker.refresh();
});

afterAll(async () => {
  tracker?.close();
  await network?.close();
  await anvil?.stop();
});

describe('createHeadTracker', () => {
  it('follows the head and the finalized block', async () => {
    const n = await head();
    expect(tracker.latest()).toMatchObject({ number: n, hash: (await blockAt(n)).hash });
    expect(tracker.finalized()).toBe(Number.parseInt((await blockAt(n)).number, 16) - 64);
    expect(tracker.reorgs()).toBe(0);
  });

  it('finds a fork below a head that jumped several blocks between two polls', async () => {
    const snapshot = (await rpc(anvil.http, 'evm_snapshot')).result;
    await rpc(anvil.http, 'evm_mine', []);
    const n = await head();
    const old = (await blockAt(n)).hash;
    await tracker.refresh();
    expect(tracker.hashAt(n)).toBe(old);
    // replaced by three other blocks before the next poll: the new head's parent is unknown
    await rpc(anvil.http, 'evm_revert', [snapshot]);
    const t = Number.parseInt((await blockAt(n - 1)).timestamp, 16);
    for (let b = 0; b < 3; b++) await rpc(anvil.http, 'evm_mine', [t + 1_000 + b]);
    await tracker.refresh();
    expect(replaced).toContain(old);
    expect(tracker.hashAt(n)).toBe((await blockAt(n)).hash);
    expect(tracker.reorgs()).toBe(1);
  });

  it('finds a revert to a lower head, and the hashes above it leave', async () => {
    const snapshot = (await rpc(anvil.http, 'evm_snapshot')).result;
    await rpc(anvil.http, 'evm_mine', []);
    await rpc(anvil.http, 'evm_mine', []);
    const top = await head();
    const gone = [(await blockAt(top - 1)).hash, (await blockAt(top)).hash];
    await tracker.refresh();
    await rpc(anvil.http, 'evm_revert', [snapshot]);
    await tracker.refresh();
    expect(replaced).toEqual(expect.arrayContaining(gone));
    expect(tracker.latest()?.number).toBe(top - 2);
    expect(tracker.hashAt(top)).toBeUndefined();
  });
});

describe('createHeadTracker with announced heads', () => {
  /** A tracker that polls only when asked, and the listener its source was given. */
  function announced(read = ethBlockReader(network)) {
    let listener: HeadListener | undefined;
    const gone: string[] = [];
    const t = createHeadTracker(network, {
      intervalMs: 3_600_000,
      read,
      onReorg: (hashes) => gone.push(...hashes),
      onHead: () => undefined,
      watch: (l) => {
        listener = l;
        return { close: () => undefined };
      },
    });
    return { t, gone, announce: () => listener! };
  }
  const asRead = (b: any): ReadBlock => ({
    number: Number.parseInt(b.number, 16),
    hash: b.hash.toLowerCase(),
    parentHash: b.parentHash.toLowerCase(),
  });

  it('applies an announced head at once, and a replaced height is a reorg before any poll', async () => {
    const { t, gone, announce } = announced();
    await t.refresh();
    const snapshot = (await rpc(anvil.http, 'evm_snapshot')).result;
    await rpc(anvil.http, 'evm_mine', []);
    const n = await head();
    const old = await blockAt(n);
    announce().head(asRead(old));
    expect(t.latest()).toEqual({ number: n, hash: old.hash });
    await rpc(anvil.http, 'evm_revert', [snapshot]);
    await rpc(anvil.http, 'evm_mine', [Number.parseInt(old.timestamp, 16) + 500]);
    const replacement = await blockAt(n);
    announce().head(asRead(replacement));
    expect(gone).toEqual([old.hash]);
    expect(t.wasReplaced(old.hash)).toBe(true);
    expect(t.hashAt(n)).toBe(replacement.hash);
    expect(t.reorgs()).toBe(1);
    t.close();
  });

  it('a poll that was on its way while a head was announced does not apply its older head', async () => {
    let hold: (() => void) | undefined;
    const real = ethBlockReader(network);
    const { t, gone, announce } = announced(async (at) => {
      const b = await real(at);
      if (at === 'latest' && hold === undefined) await new Promise<void>((r) => (hold = r));
      return b;
    });
    // the first poll read the head and waits; meanwhile a newer head is announced
    await new Promise((r) => setTimeout(r, 100));
    await rpc(anvil.http, 'evm_mine', []);
    const n = await head();
    announce().head(asRead(await blockAt(n)));
    hold!();
    await t.refresh();
    expect(t.latest()?.number).toBe(n);
    expect(gone).toEqual([]);
    t.close();
  });

  it('refresh() while a poll is on its way reads the chain again after it', async () => {
    let reads = 0;
    const real = ethBlockReader(network);
    const { t } = announced(async (at) => {
      if (at === 'latest') reads++;
      return real(at);
    });
    await t.refresh();
    const before = reads;
    const first = t.refresh();
    await rpc(anvil.http, 'evm_mine', []);
    // this one must see the block mined after the first poll started
    await t.refresh();
    await first;
    expect(reads).toBe(before + 2);
    expect(t.latest()?.number).toBe(await head());
    t.close();
  });

  it('a Starknet-style reorg notice replaces every known height from it on', async () => {
    const { t, gone, announce } = announced();
    await t.refresh();
    const n = await head();
    const top = t.hashAt(n)!;
    const below = t.hashAt(n - 1)!;
    announce().replacedFrom(n);
    expect(gone).toEqual([top]);
    expect(t.wasReplaced(top)).toBe(true);
    expect(t.hashAt(n)).toBeUndefined();
    expect(t.latest()).toEqual({ number: n - 1, hash: below });
    // the chain itself did not change: the next read puts the heights back
    await t.refresh();
    expect(t.hashAt(n)).toBe(top);
    t.close();
  });
});
