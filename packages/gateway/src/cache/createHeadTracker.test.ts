import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startAnvil } from '../embedded/startAnvil.js';
import { ethFamily } from '../families/eth/ethFamily.js';
import { createNetwork, type Network } from '../network/createNetwork.js';
import { rpc } from '../test-support/startTestGateway.js';
import { createHttpUpstream } from '../upstream/createHttpUpstream.js';
import { createHeadTracker, type HeadTracker } from './createHeadTracker.js';

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
