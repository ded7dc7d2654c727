import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { validateConfig } from '../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../main.js';
import { rpc, waitForReceipt } from '../test-support/startTestGateway.js';
import { type Probe, queryDuringReorg, type ReorgCheck, warmCache } from './queryDuringReorg.js';
import { type ReorgAnvils, startReorgAnvils } from './startReorgAnvils.js';

// No stale answer after a reorg: readers query the gateway continuously (blocks by number and by
// hash, balances at those heights, a transaction and its receipt, all answered from the cache
// before the change) while the chain is reorganised, and every answer is checked against the
// chain before and after (`queryDuringReorg`). A production network and a dev network, each on
// its own anvil (with its WebSocket); the head is polled once a minute only, so what the
// production network learns in time it learns from the upstream's newHeads, which the gateway
// holds while a WebSocket client is subscribed to newHeads (the cache hears that subscription).
// Without one it learns by polling: `cache.gateway.test.ts`.
let anvils: ReorgAnvils;
let gw: RunningGateway;
let dir: string;
let prodUrl: string;
let devUrl: string;

const hex = (n: number) => `0x${n.toString(16)}`;
const head = async (url: string) => Number.parseInt((await rpc(url, 'eth_blockNumber')).result, 16);

/**
 * A transaction to a fresh address in block n, then two more blocks, sent to `via` (the node,
 * or the dev network: its writes make the gateway read the head); the probes read blocks
 * n-1..n+2 by number, n..n+2 by hash, the address's balance at each height, the transaction and
 * its receipt.
 */
async function prepare(node: string, via = node): Promise<Probe[]> {
  const [from] = (await rpc(node, 'eth_accounts')).result;
  const to = `0x${Math.random().toString(16).slice(2).padEnd(40, '7').slice(0, 40)}`;
  const tx = (await rpc(via, 'eth_sendTransaction', [{ from, to, value: '0x1234' }])).result;
  const receipt = await waitForReceipt(node, tx);
  const n = Number.parseInt(receipt.blockNumber, 16);
  await rpc(via, 'evm_mine');
  await rpc(via, 'evm_mine');
  const probes: Probe[] = [
    { method: 'eth_getTransactionByHash', params: [tx] },
    { method: 'eth_getTransactionReceipt', params: [tx] },
  ];
  for (let h = n - 1; h <= n + 2; h++) {
    probes.push({ method: 'eth_getBlockByNumber', params: [hex(h), false] });
    probes.push({ method: 'eth_getBalance', params: [to, hex(h)] });
    if (h >= n) {
      const block = (await rpc(node, 'eth_getBlockByNumber', [hex(h), false])).result;
      probes.push({ method: 'eth_getBlockByHash', params: [block.hash, false] });
    }
  }
  return probes;
}

/**
 * The cache takes every probe through `gatewayUrl` (else the test fails), then the readers read
 * them while `act` changes the chain (`queryDuringReorg`, the chain before asked from `nodeUrl`).
 */
async function readAcross(
  gatewayUrl: string,
  nodeUrl: string,
  probes: readonly Probe[],
  act: () => Promise<unknown>,
  graceMs?: number,
): Promise<ReorgCheck> {
  if (!(await warmCache(gatewayUrl, probes))) throw new Error('the cache did not take the probes');
  return queryDuringReorg({ gatewayUrl, nodeUrl, probes, act, ...(graceMs === undefined ? {} : { graceMs }) });
}

/** What every scenario must show: the change altered answers, the cache served before and after, nothing stale. */
function expectNoStale(check: ReorgCheck) {
  expect(check.changed).toBeGreaterThan(3);
  expect(check.hitsBefore).toBeGreaterThan(20);
  expect(check.hitsAfter).toBeGreaterThan(0);
  expect(check.stale).toEqual([]);
}

beforeAll(async () => {
  anvils = await startReorgAnvils();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-reorg-'));
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: dir,
      devKey: true,
      cache: { maxBytes: 4 * 1024 * 1024, headPollMs: 60_000 },
      networks: anvils.networks(),
    }),
  );
  prodUrl = `${gw.networks.mainnet!.http}/v3/${gw.devKey!.key}`;
  devUrl = `${gw.networks.devnet!.http}/v3/${gw.devKey!.key}`;
});

afterAll(async () => {
  await gw?.close();
  await anvils?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('no stale answer after a reorg made through the gateway (dev network)', () => {
  const node = () => anvils.dev.http;

  it('anvil_reorg: every request started after its answer sees the new chain', async () => {
    const probes = await prepare(node(), devUrl);
    expectNoStale(await readAcross(devUrl, node(), probes, () => rpc(devUrl, 'anvil_reorg', [3, []])));
  });

  it('evm_revert: blocks above the snapshot are gone at once', async () => {
    const snapshot = (await rpc(devUrl, 'evm_snapshot')).result;
    const probes = await prepare(node(), devUrl);
    expectNoStale(await readAcross(devUrl, node(), probes, () => rpc(devUrl, 'evm_revert', [snapshot])));
  });

  it('anvil_rollback: the rolled back blocks are gone at once', async () => {
    const probes = await prepare(node(), devUrl);
    expectNoStale(await readAcross(devUrl, node(), probes, () => rpc(devUrl, 'anvil_rollback', [3])));
  });
});

describe('no stale answer after a reorg on the upstream (production network, newHeads)', () => {
  // the gateway learns of the reorg when the upstream announces its new head; the notification
  // leaves anvil as it answers the reorg, so a request may start a moment before the gateway read it
  const graceMs = 100;
  let client: WebSocket;
  let heads = 0;

  beforeAll(async () => {
    // a dapp watching the chain: the gateway holds the upstream's newHeads for it
    client = new WebSocket(`${gw.networks.mainnet!.ws}/ws/v3/${gw.devKey!.key}`);
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    let subscribed = false;
    client.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.method === 'eth_subscription') heads++;
      else if (m.id === 1 && typeof m.result === 'string') subscribed = true;
    });
    client.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    for (let i = 0; !subscribed && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
    await rpc(anvils.prod.http, 'evm_mine');
    for (let i = 0; heads === 0 && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
    expect(heads).toBeGreaterThan(0);
  });
  afterAll(() => client?.close());

  it('anvil_reorg on the node: the new chain is served as soon as its heads are announced', async () => {
    const node = anvils.prod.http;
    const probes = await prepare(node);
    const check = await readAcross(prodUrl, node, probes, () => rpc(node, 'anvil_reorg', [3, []]), graceMs);
    expectNoStale(check);
    console.log(`anvil_reorg on the node: last old answer ${check.lastOldAfterMs ?? 'none'} ms after it`);
  });

  it('a revert followed by a longer chain on the node (how a real reorg looks): served fresh once announced', async () => {
    const node = anvils.prod.http;
    const snapshot = (await rpc(node, 'evm_snapshot')).result;
    const probes = await prepare(node);
    const top = await head(node);
    const check = await readAcross(
      prodUrl,
      node,
      probes,
      async () => {
        await rpc(node, 'evm_revert', [snapshot]);
        const t = Date.now() / 1000 + 1_000;
        // one block more than the replaced chain had, other timestamps (other hashes)
        while ((await head(node)) <= top) await rpc(node, 'evm_mine', [Math.floor(t)]);
      },
      graceMs,
    );
    expectNoStale(check);
    console.log(`revert and longer chain on the node: last old answer ${check.lastOldAfterMs ?? 'none'} ms after it`);
  });
});
