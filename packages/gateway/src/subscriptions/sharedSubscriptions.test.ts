import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, encodeAbiParameters, http, webSocket } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../main.js';
import { rpc, waitForReceipt } from '../test-support/startTestGateway.js';
import { STORAGE_CONTRACT_BYTECODE, VALUE_SET_TOPIC } from '../test-support/storageContract.js';
import { startWsProxy, type WsProxy } from './startWsProxy.js';

const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

let anvil: EmbeddedProcess;
let proxy: WsProxy;
/** A second network with two upstreams (the same anvil behind two proxies). */
let primary: WsProxy;
let secondary: WsProxy;
let twoUrl: string;
let gw: RunningGateway;
let dataDir: string;
let wsUrl: string;
let stopped = false;
let contract: `0x${string}`;

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startWsProxy(anvil.ws!);
  primary = await startWsProxy(anvil.ws!);
  secondary = await startWsProxy(anvil.ws!);
  dataDir = await mkdtemp(join(tmpdir(), 'nodegate-subs-'));
  const config = validateConfig({
    listen: '127.0.0.1:0',
    dataDir,
    devKey: true,
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        chainId: 31337,
        dev: true,
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http, ws: proxy.url }],
      },
      {
        name: 'eth-two',
        family: 'eth',
        chainId: 31337,
        dev: true,
        pathPrefix: '/eth-two',
        upstreams: [
          { name: 'primary', http: anvil.http, ws: primary.url },
          { name: 'secondary', http: anvil.http, ws: secondary.url },
        ],
      },
    ],
  });
  gw = await startGateway(config, {
    subscriptionTimings: {
      heartbeatMs: 300,
      clientHeartbeatMs: 300,
      initialBackoffMs: 50,
      maxBackoffMs: 200,
      giveUpAfterMs: 2_000,
      callTimeoutMs: 2_000,
    },
  });
  const base = gw.networks['eth-devnet']!;
  wsUrl = `${base.ws}/ws/v3/${gw.devKey!.key}`;
  twoUrl = `${gw.networks['eth-two']!.ws}/ws/v3/${gw.devKey!.key}`;
  const wallet = createWalletClient({ account, chain: foundry, transport: http(anvil.http) });
  const deploy = await wallet.deployContract({ abi: [], bytecode: STORAGE_CONTRACT_BYTECODE });
  contract = (await waitForReceipt(anvil.http, deploy)).contractAddress;
});
afterAll(async () => {
  if (!stopped) await gw?.close();
  await proxy?.close();
  await primary?.close();
  await secondary?.close();
  await anvil?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const mine = async () => expect((await rpc(anvil.http, 'evm_mine', [])).error).toBeUndefined();
const head = async () => Number((await rpc(anvil.http, 'eth_blockNumber', [])).result);
const blockHash = async (n: number) =>
  (await rpc(anvil.http, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result.hash as string;
const setValue = async (value: bigint) => {
  const wallet = createWalletClient({ account, chain: foundry, transport: http(anvil.http) });
  const tx = await wallet.sendTransaction({
    to: contract,
    data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account.address, value]),
  });
  await waitForReceipt(anvil.http, tx);
  return tx;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
};
const stats = () => gw.subscriptions.stats();
const subscribes = () => proxy.methods.filter((m) => m === 'eth_subscribe').length;

/** A raw `ws` client that keeps every notification per subscription id. */
async function client(url = wsUrl) {
  const ws = new WebSocket(url);
  const events = new Map<string, any[]>();
  const answers = new Map<number, (m: any) => void>();
  let closed: { code: number; reason: string } | undefined;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.method === 'eth_subscription') {
      const list = events.get(m.params.subscription) ?? [];
      list.push(m.params.result);
      events.set(m.params.subscription, list);
    } else answers.get(m.id)?.(m);
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: reason.toString() };
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 1;
  const call = (method: string, params: unknown[]) =>
    new Promise<any>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  const subscribe = async (params: unknown[]) => {
    const answer = await call('eth_subscribe', params);
    expect(answer.error).toBeUndefined();
    const id = answer.result as string;
    events.set(id, events.get(id) ?? []);
    return { id, events: () => events.get(id)! };
  };
  return { ws, call, subscribe, closed: () => closed };
}

/** Heads received must be the chain's blocks from..to, each once, in order. */
async function expectEveryBlock(heads: any[], from: number, to: number) {
  expect(heads.map((h) => Number(h.number))).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
  for (const h of heads) expect(h.hash).toBe(await blockHash(Number(h.number)));
}

describe('shared subscriptions', () => {
  it('two clients with the same filter share one upstream subscription; both get every head', async () => {
    const before = subscribes();
    const a = await client();
    const subA = await a.subscribe(['newHeads']);
    // a viem client, as dapps use it
    const viemClient = createPublicClient({ chain: foundry, transport: webSocket(wsUrl) });
    const viemHeads: any[] = [];
    const { unsubscribe } = await viemClient.transport.subscribe({
      params: ['newHeads'],
      onData: (d: any) => viemHeads.push(d.result),
      onError: () => {},
    });
    expect(subscribes() - before).toBe(1);
    expect(stats().upstreamSubscriptions).toBe(1);
    expect(stats().clientSubscriptions).toBe(2);
    const first = (await head()) + 1;
    for (let i = 0; i < 5; i++) await mine();
    await waitFor(() => subA.events().length === 5 && viemHeads.length === 5);
    await expectEveryBlock(subA.events(), first, first + 4);
    await expectEveryBlock(viemHeads, first, first + 4);
    // the same filter spelt another way is the same stream; logs filters with addresses in another order too
    const x = '0x00000000000000000000000000000000000000aa';
    const y = '0x00000000000000000000000000000000000000BB';
    const beforeLogs = subscribes();
    await a.subscribe(['logs', { address: [x, y], topics: [VALUE_SET_TOPIC, null] }]);
    await a.subscribe(['logs', { address: [y.toLowerCase(), x, x], topics: [[VALUE_SET_TOPIC]] }]);
    expect(subscribes() - beforeLogs).toBe(1);
    expect(stats().upstreamSubscriptions).toBe(2);
    await unsubscribe();
    expect(proxy.methods.at(-1)).not.toBe('eth_unsubscribe');
    a.ws.close();
    await viemClient.transport.getRpcClient().then((c) => c.close());
    // the last client gone: unsubscribed upstream and the connection closed
    await waitFor(() => proxy.open === 0 && stats().clientSubscriptions === 0);
    expect(stats().upstreamSubscriptions).toBe(0);
  });

  it('the upstream connection cut while mining: every block exactly once, in order', async () => {
    const c = await client();
    const sub = await c.subscribe(['newHeads']);
    const { reconnects, backfilledEvents, resubscribes } = stats();
    const first = (await head()) + 1;
    for (let i = 0; i < 4; i++) await mine();
    await waitFor(() => sub.events().length === 4);
    proxy.refuse(true);
    proxy.dropAll();
    // mined while nodegate has no upstream connection
    for (let i = 0; i < 5; i++) {
      await mine();
      await sleep(60);
    }
    proxy.refuse(false);
    for (let i = 0; i < 10; i++) {
      await mine();
      await sleep(30);
    }
    const last = await head();
    await waitFor(() => sub.events().length >= last - first + 1);
    await sleep(200);
    await expectEveryBlock(sub.events(), first, last);
    expect(stats().reconnects).toBeGreaterThan(reconnects);
    expect(stats().resubscribes).toBeGreaterThan(resubscribes);
    expect(stats().backfilledEvents - backfilledEvents).toBeGreaterThanOrEqual(5);
    expect(c.closed()).toBeUndefined();
    c.ws.close();
  });

  it('logs missed while the upstream was away are backfilled by eth_getLogs, once each', async () => {
    const c = await client();
    const sub = await c.subscribe(['logs', { address: contract, topics: [VALUE_SET_TOPIC] }]);
    const txs = [await setValue(1n)];
    await waitFor(() => sub.events().length === 1);
    proxy.refuse(true);
    proxy.dropAll();
    for (const v of [2n, 3n, 4n]) txs.push(await setValue(v));
    proxy.refuse(false);
    txs.push(await setValue(5n));
    await waitFor(() => sub.events().length >= 5);
    await sleep(300);
    expect(sub.events().map((l) => l.transactionHash)).toEqual(txs);
    expect(sub.events().every((l) => l.removed === false || l.removed === undefined)).toBe(true);
    c.ws.close();
  });

  it('a reorg (evm_snapshot, evm_revert, another block at the same height) sends the old logs with removed: true', async () => {
    const c = await client();
    const logs = await c.subscribe(['logs', { address: contract, topics: [VALUE_SET_TOPIC] }]);
    const heads = await c.subscribe(['newHeads']);
    const snapshot = (await rpc(anvil.http, 'evm_snapshot', [])).result;
    const old = await setValue(10n);
    await waitFor(() => logs.events().length === 1);
    const oldLog = logs.events()[0];
    expect((await rpc(anvil.http, 'evm_revert', [snapshot])).result).toBe(true);
    const replacement = await setValue(20n);
    await waitFor(() => logs.events().length === 3);
    const [, removed, added] = logs.events();
    expect(removed).toEqual({ ...oldLog, removed: true });
    expect(removed.transactionHash).toBe(old);
    expect(added.transactionHash).toBe(replacement);
    expect(added.removed).toBe(false);
    expect(added.blockNumber).toBe(oldLog.blockNumber);
    expect(added.blockHash).not.toBe(oldLog.blockHash);
    // newHeads: both blocks at that height, each once
    await waitFor(() => heads.events().length === 2);
    const [h1, h2] = heads.events();
    expect(h1.number).toBe(h2.number);
    expect(h1.hash).not.toBe(h2.hash);
    expect(stats().removedLogs).toBeGreaterThanOrEqual(1);
    c.ws.close();
  });

  it("anvil_reorg two blocks deep: both blocks' logs come back once with removed: true, oldest first", async () => {
    const c = await client();
    const logs = await c.subscribe(['logs', { address: contract, topics: [VALUE_SET_TOPIC] }]);
    const heads = await c.subscribe(['newHeads']);
    const txs = [await setValue(60n), await setValue(70n)];
    await waitFor(() => logs.events().length === 2 && heads.events().length === 2);
    const delivered = logs.events().slice();
    expect((await rpc(anvil.http, 'anvil_reorg', [2, []])).error).toBeUndefined();
    await waitFor(() => logs.events().length === 4 && heads.events().length === 4);
    await sleep(300);
    expect(logs.events().slice(2)).toEqual(delivered.map((l) => ({ ...l, removed: true })));
    expect(logs.events().map((l) => l.transactionHash)).toEqual([...txs, ...txs]);
    const numbers = heads.events().map((h) => Number(h.number));
    expect(numbers.slice(2)).toEqual(numbers.slice(0, 2));
    await expectEveryBlock(heads.events().slice(2), numbers[0]!, numbers[1]!);
    c.ws.close();
  });

  it('a reorg while the upstream is away: the backfill sends the replaced logs with removed: true, then the new ones', async () => {
    const c = await client();
    const logs = await c.subscribe(['logs', { address: contract, topics: [VALUE_SET_TOPIC] }]);
    const snapshot = (await rpc(anvil.http, 'evm_snapshot', [])).result;
    const old = await setValue(30n);
    await waitFor(() => logs.events().length === 1);
    proxy.refuse(true);
    proxy.dropAll();
    expect((await rpc(anvil.http, 'evm_revert', [snapshot])).result).toBe(true);
    const replacements = [await setValue(40n), await setValue(50n)];
    proxy.refuse(false);
    await waitFor(() => logs.events().length === 4);
    await sleep(300);
    const [first, removed, ...added] = logs.events();
    expect(first.transactionHash).toBe(old);
    expect(removed).toEqual({ ...first, removed: true });
    expect(added.map((l) => l.transactionHash)).toEqual(replacements);
    expect(logs.events()).toHaveLength(4);
    c.ws.close();
  });

  it("an upstream whose WebSocket fails is replaced by the network's next one, with every block once", async () => {
    const c = await client(twoUrl);
    const sub = await c.subscribe(['newHeads']);
    expect([primary.open, secondary.open]).toEqual([1, 0]);
    const first = (await head()) + 1;
    await mine();
    await waitFor(() => sub.events().length === 1);
    primary.refuse(true);
    primary.dropAll();
    for (let i = 0; i < 4; i++) await mine();
    await waitFor(() => secondary.open === 1);
    await mine();
    await waitFor(() => sub.events().length === 6);
    await sleep(200);
    await expectEveryBlock(sub.events(), first, first + 5);
    expect(stats().networks['eth-two']!.reconnects).toBe(1);
    primary.refuse(false);
    c.ws.close();
    await waitFor(() => secondary.open === 0);
  });

  it('a hung upstream (no pongs) is dropped by the heartbeat and replaced; a client that does not answer pings is closed', async () => {
    const c = await client();
    const sub = await c.subscribe(['newHeads']);
    const { reconnects } = stats();
    const first = (await head()) + 1;
    await mine();
    await waitFor(() => sub.events().length === 1);
    proxy.freeze();
    await mine();
    await mine();
    await waitFor(() => stats().reconnects > reconnects);
    await mine();
    await waitFor(() => sub.events().length === 4);
    await expectEveryBlock(sub.events(), first, first + 3);

    const dead = await client();
    await dead.subscribe(['newHeads']);
    const { deadClientsClosed, connections } = stats();
    (dead.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await waitFor(() => stats().deadClientsClosed > deadClientsClosed);
    // the terminated socket's 'close' (which releases the connection) follows asynchronously
    await waitFor(() => stats().connections === connections - 1);
    expect(stats().connections).toBe(connections - 1);
    c.ws.close();
  });

  it('an upstream that stays away ends the subscriptions with 1011 and a reason; plain calls still work', async () => {
    const c = await client();
    await c.subscribe(['newHeads']);
    proxy.refuse(true);
    proxy.dropAll();
    await waitFor(() => c.closed() !== undefined, 10_000);
    expect(c.closed()).toEqual({ code: 1011, reason: 'upstream subscription connection failed' });
    expect(stats().gaveUp).toBeGreaterThanOrEqual(1);
    proxy.refuse(false);
    const again = await client();
    expect((await again.call('eth_chainId', [])).result).toBe('0x7a69');
    const sub = await again.subscribe(['newHeads']);
    await mine();
    await waitFor(() => sub.events().length === 1);
    again.ws.close();
  });

  it('a filter the upstream refuses on resubscribe ends with 1011 for its clients only', async () => {
    const heads = await client();
    const headSub = await heads.subscribe(['newHeads']);
    const logs = await client();
    await logs.subscribe(['logs', { address: contract }]);
    proxy.refuseSubscribe((params) => Array.isArray(params) && params[0] === 'logs');
    proxy.dropAll();
    await waitFor(() => logs.closed() !== undefined);
    expect(logs.closed()).toEqual({ code: 1011, reason: 'upstream refused the subscription' });
    proxy.refuseSubscribe(undefined);
    await mine();
    await waitFor(() => headSub.events().length === 1);
    expect(heads.closed()).toBeUndefined();
    heads.ws.close();
  });

  it('a connection holds at most 1,000 subscriptions; the next is refused with -32600 until one ends', async () => {
    const c = await client();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => c.call('eth_subscribe', ['newHeads'])));
      for (const a of answers) ids.push(a.result);
    }
    expect(new Set(ids).size).toBe(1_000);
    expect(stats().upstreamSubscriptions).toBe(1);
    const refused = await c.call('eth_subscribe', ['newHeads']);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toMatch(/too many subscriptions on this connection: at most 1000/);
    expect((await c.call('eth_unsubscribe', [ids[0]])).result).toBe(true);
    expect((await c.call('eth_unsubscribe', [ids[0]])).result).toBe(false);
    expect((await c.call('eth_subscribe', ['newHeads'])).result).toMatch(/^0x[0-9a-f]{32}$/);
    c.ws.close();
    await waitFor(() => stats().clientSubscriptions === 0);
  });

  it('the gateway stopping closes clients with 1001', async () => {
    const c = await client();
    await c.subscribe(['newHeads']);
    await gw.close();
    await waitFor(() => c.closed() !== undefined);
    expect(c.closed()).toEqual({ code: 1001, reason: 'gateway shutting down' });
    stopped = true;
  });
});
