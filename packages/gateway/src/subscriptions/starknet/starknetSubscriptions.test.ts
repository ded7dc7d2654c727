import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningDevchain, startDevchain } from '@nodegate/starknet-devchain';
import { invokeV3, rpcResult, transferCalldata, type WsClient, wsClient } from '@nodegate/starknet-devchain/testing';
import { WebSocketChannel } from 'starknet';
import { createSpecValidator } from '@nodegate/starknet-spec/conformance';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../../config/validateConfig.js';
import type { EmbeddedProcess } from '../../embedded/startAnvil.js';
import { startStarknetDevchain } from '../../embedded/startStarknetDevchain.js';
import { type RunningGateway, startGateway } from '../../main.js';
import { startWsProxy, type WsProxy } from '../startWsProxy.js';

// starknet.js picks its WebSocket class when it loads, from the global one (Node 22 has it; on
// Node 20 it would be a stub that throws): give it the ws package's before anything imports it.
await vi.hoisted(async () => {
  const { WebSocket } = await import('ws');
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
});

// Starknet subscriptions (spec 0.10) through the gateway to the embedded dev chain (its own
// process), with real WebSocket clients (ws, and starknet.js's WebSocketChannel), and a faulting
// WebSocket proxy between the gateway and the dev chain.
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const TRANSFER = '0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9';
type Account = { address: string; private_key: string };

let devchain: EmbeddedProcess;
/** A dev chain that mines on demand (transactions sit PRE_CONFIRMED), the upstream of a second network. */
let onDemand: RunningDevchain;
let onDemandWsUrl: string;
let proxy: WsProxy;
let gw: RunningGateway;
let dir: string;
let wsUrl: string;
let accounts: Account[];
const nonces = new Map<string, bigint>();
const clients: WsClient[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-stk-subs-'));
  devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  expect(devchain.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
  proxy = await startWsProxy(devchain.ws!);
  onDemand = await startDevchain({ port: 0, accounts: 2, mineOnDemand: true });
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gw'),
      devKey: true,
      networks: [
        {
          name: 'starknet-devnet',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-devnet',
          maxEventsChunkSize: 1024,
          upstreams: [{ name: 'devchain', http: devchain.http, ws: proxy.url }],
        },
        {
          name: 'starknet-ondemand',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-ondemand',
          upstreams: [{ name: 'ondemand', http: onDemand.rpcUrl, ws: onDemand.wsUrl }],
        },
      ],
    }),
    {
      subscriptionTimings: {
        heartbeatMs: 300,
        clientHeartbeatMs: 300,
        initialBackoffMs: 50,
        maxBackoffMs: 200,
        giveUpAfterMs: 5_000,
        callTimeoutMs: 3_000,
      },
    },
  );
  wsUrl = `${gw.networks['starknet-devnet']!.ws}/ws/v3/${gw.devKey!.key}`;
  onDemandWsUrl = `${gw.networks['starknet-ondemand']!.ws}/ws/v3/${gw.devKey!.key}`;
  accounts = await rpcResult(devchain.http, 'devnet_getPredeployedAccounts');
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await gw?.close();
  await proxy?.close();
  await devchain?.stop();
  await onDemand?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function client(url = wsUrl): Promise<WsClient> {
  const c = await wsClient(url);
  clients.push(c);
  return c;
}
/** A STRK transfer from `from`, sent to the dev chain directly; its hash. */
async function transfer(from = accounts[0]!, amount = 1n): Promise<string> {
  const nonce =
    nonces.get(from.address) ?? BigInt(await rpcResult(devchain.http, 'starknet_getNonce', ['latest', from.address]));
  nonces.set(from.address, nonce + 1n);
  const t = invokeV3(from.address, transferCalldata(STRK, accounts[2]!.address, amount), nonce, from.private_key);
  return (await rpcResult(devchain.http, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx }))
    .transaction_hash;
}
const head = async (): Promise<number> => rpcResult(devchain.http, 'starknet_blockNumber');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const of = (id: string) => (n: { params: { subscription_id: string } }) => n.params.subscription_id === id;
const subscribes = (method: string) => proxy.methods.filter((m) => m === method).length;
const stats = () => gw.subscriptions.stats().networks['starknet-devnet']!;

describe('Starknet subscriptions through the gateway', () => {
  it('newHeads as starknet_ and stk_: two clients share one upstream subscription; each gets the current head, then every block once in order', async () => {
    const before = subscribes('starknet_subscribeNewHeads');
    const a = await client();
    const b = await client();
    const start = await head();
    const ida = await a.result('starknet_subscribeNewHeads', {});
    const idb = await b.result('stk_subscribeNewHeads', []);
    expect(ida).not.toBe(idb);
    expect(subscribes('starknet_subscribeNewHeads') - before).toBe(1);
    for (const c of [a, b]) {
      const [first] = await c.waitFor(() => true);
      expect(first!.method).toBe('starknet_subscriptionNewHeads');
      expect(first!.params.result.block_number).toBe(start);
    }
    await transfer();
    await transfer();
    for (const [c, id] of [
      [a, ida],
      [b, idb],
    ] as const) {
      const heads = (await c.waitFor(of(id), 3)).map((n) => n.params.result);
      expect(heads.map((h) => h.block_number)).toEqual([start, start + 1, start + 2]);
      expect(heads[2].parent_hash).toBe(heads[1].block_hash);
    }
    expect(await a.result('starknet_unsubscribe', { subscription_id: ida })).toBe(true);
    expect(await b.result('stk_unsubscribe', [idb])).toBe(true);
  });

  it('unsubscribe: 66 for an id that is not open; -32601 over HTTP; the upstream subscription ends with its last client', async () => {
    const c = await client();
    const id = await c.result('starknet_subscribeNewHeads');
    expect(stats().upstreamSubscriptions).toBeGreaterThanOrEqual(1);
    expect(await c.result('starknet_unsubscribe', [id])).toBe(true);
    const again = await c.call('starknet_unsubscribe', [id]);
    expect(again.error).toMatchObject({ code: 66, message: 'Invalid subscription id' });
    const unknown = await c.call('stk_unsubscribe', { subscription_id: '0x1234' });
    expect(unknown.error?.code).toBe(66);
    const seen = c.notifications.filter(of(id)).length;
    await transfer();
    await sleep(150);
    expect(c.notifications.filter(of(id))).toHaveLength(seen);
    expect(stats().upstreamSubscriptions).toBe(0);
    const res = await fetch(`${gw.networks['starknet-devnet']!.http}/v3/${gw.devKey!.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_subscribeNewHeads', params: {} }),
    });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });

  it('events: from_address and keys filter; equal filters spelt differently share one upstream subscription', async () => {
    const a = await client();
    const b = await client();
    const before = subscribes('starknet_subscribeEvents');
    const ida = await a.result('starknet_subscribeEvents', { from_address: STRK, keys: [[TRANSFER]] });
    // the same filter: a list of one address, zero-padded felts, a trailing empty key position
    const idb = await b.result('stk_subscribeEvents', {
      from_address: [`0x0${STRK.slice(2)}`],
      keys: [[`0x00${TRANSFER.slice(2)}`], []],
      finality_status: 'ACCEPTED_ON_L2',
    });
    const other = await b.result('starknet_subscribeEvents', { keys: [['0x1234']] });
    expect(subscribes('starknet_subscribeEvents') - before).toBe(2);
    const tx = await transfer();
    for (const [c, id] of [
      [a, ida],
      [b, idb],
    ] as const) {
      const got = await c.waitFor((n) => of(id)(n) && n.params.result.transaction_hash === tx, 2);
      for (const n of got) {
        expect(n.method).toBe('starknet_subscriptionEvents');
        expect(n.params.result).toMatchObject({
          from_address: STRK,
          keys: [TRANSFER],
          finality_status: 'ACCEPTED_ON_L2',
        });
      }
      await sleep(50);
      expect(c.notifications.filter((n) => of(id)(n) && n.params.result.transaction_hash === tx)).toHaveLength(2);
    }
    expect(b.notifications.filter(of(other))).toEqual([]);
    const tooMany = await a.call('starknet_subscribeEvents', { keys: Array.from({ length: 17 }, () => ['0x1']) });
    expect(tooMany.error?.code).toBe(34);
    for (const [c, id] of [
      [a, ida],
      [b, idb],
      [b, other],
    ] as const)
      await c.result('starknet_unsubscribe', [id]);
  });

  it('newHeads with block_id replays from that block; 68 beyond 1024 blocks back', async () => {
    const c = await client();
    const latest = await head();
    const from = Math.max(0, latest - 3);
    const id = await c.result('starknet_subscribeNewHeads', { block_id: { block_number: from } });
    const heads = await c.waitFor(of(id), latest - from + 1);
    expect(heads.map((n) => n.params.result.block_number)).toEqual(
      Array.from({ length: latest - from + 1 }, (_, i) => from + i),
    );
    await transfer();
    const next = await c.waitFor(of(id), latest - from + 2);
    expect(next.at(-1)!.params.result.block_number).toBe(latest + 1);
    await c.result('starknet_unsubscribe', [id]);
    const bad = await c.call('starknet_subscribeNewHeads', { block_id: 'pre_confirmed' });
    expect(bad.error?.code).toBe(-32602);
    const unknown = await c.call('starknet_subscribeNewHeads', { block_id: { block_hash: '0x1234' } });
    expect(unknown.error?.code).toBe(24);
  });

  it('transaction status of a sent transaction reaches ACCEPTED_ON_L2 (starknet.js WebSocketChannel); a later subscriber to the same hash gets the current status', async () => {
    const channel = new WebSocketChannel({ nodeUrl: wsUrl, autoReconnect: false });
    await channel.waitForConnection();
    try {
      const [from, to] = [accounts[1]!, accounts[2]!];
      const nonce = BigInt(await rpcResult(devchain.http, 'starknet_getNonce', ['latest', from.address]));
      nonces.set(from.address, nonce + 1n);
      const t = invokeV3(from.address, transferCalldata(STRK, to.address, 3n), nonce, from.private_key);
      const sub = await channel.subscribeTransactionStatus({ transactionHash: t.hash });
      const statuses: string[] = [];
      const final = new Promise<any>((resolve) =>
        sub.on((e: any) => {
          statuses.push(e.status.finality_status);
          if (e.status.finality_status === 'ACCEPTED_ON_L2') resolve(e);
        }),
      );
      // sent through the gateway
      const sent = await rpcResult(
        `${gw.networks['starknet-devnet']!.http}/v3/${gw.devKey!.key}`,
        'starknet_addInvokeTransaction',
        {
          invoke_transaction: t.tx,
        },
      );
      expect(sent.transaction_hash).toBe(t.hash);
      const e = await final;
      expect(e.transaction_hash).toBe(t.hash);
      expect(e.status).toEqual({ finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' });
      expect(statuses.at(-1)).toBe('ACCEPTED_ON_L2');
      // one upstream subscription for the hash; a later client gets the status at once
      const before = subscribes('starknet_subscribeTransactionStatus');
      const c = await client();
      const id = await c.result('starknet_subscribeTransactionStatus', { transaction_hash: t.hash });
      const [now] = await c.waitFor(of(id));
      expect(now!.params.result).toEqual({ transaction_hash: t.hash, status: e.status });
      expect(subscribes('starknet_subscribeTransactionStatus')).toBe(before);
      expect(await sub.unsubscribe()).toBe(true);
    } finally {
      channel.disconnect();
    }
  });

  it('new transactions and receipts: sender_address filter', async () => {
    const c = await client();
    const [a, b] = [accounts[0]!, accounts[1]!];
    const txs = await c.result('starknet_subscribeNewTransactions', { sender_address: [a.address] });
    const receipts = await c.result('stk_subscribeNewTransactionReceipts', {});
    const fromB = await c.result('starknet_subscribeNewTransactions', { sender_address: [b.address] });
    const hash = await transfer(a);
    const [tx] = await c.waitFor(of(txs));
    expect(tx!.method).toBe('starknet_subscriptionNewTransaction');
    expect(tx!.params.result).toMatchObject({ transaction_hash: hash, finality_status: 'ACCEPTED_ON_L2' });
    const [r] = await c.waitFor(of(receipts));
    expect(r!.method).toBe('starknet_subscriptionNewTransactionReceipts');
    expect(r!.params.result).toMatchObject({ transaction_hash: hash, execution_status: 'SUCCEEDED' });
    expect(c.notifications.filter(of(fromB))).toEqual([]);
    for (const id of [txs, receipts, fromB]) await c.result('starknet_unsubscribe', [id]);
  });

  it('an upstream cut: every head once and in order, the events of the gap backfilled once', async () => {
    const a = await client();
    const b = await client();
    const heads = await a.result('starknet_subscribeNewHeads');
    const heads2 = await b.result('stk_subscribeNewHeads');
    const events = await b.result('starknet_subscribeEvents', { from_address: STRK });
    const start = (await a.waitFor(of(heads)))[0]!.params.result.block_number as number;
    await b.waitFor(of(heads2));
    const reconnects = stats().reconnects;
    proxy.refuse(true);
    proxy.dropAll();
    const gap = [await transfer(), await transfer(), await transfer()];
    proxy.refuse(false);
    const deadline = Date.now() + 10_000;
    while (stats().reconnects === reconnects && Date.now() < deadline) await sleep(20);
    expect(stats().reconnects).toBe(reconnects + 1);
    await transfer();
    for (const [c, id] of [
      [a, heads],
      [b, heads2],
    ] as const) {
      const got = (await c.waitFor(of(id), 5)).map((n) => n.params.result.block_number);
      expect(got).toEqual([start, start + 1, start + 2, start + 3, start + 4]);
    }
    // the gap's transfers each gave two STRK events (transfer and fee): backfilled once each
    // (and the live one after it two more)
    const evs = await b.waitFor(of(events), 10);
    for (const tx of gap) expect(evs.filter((n) => n.params.result.transaction_hash === tx)).toHaveLength(2);
    await sleep(100);
    expect(b.notifications.filter(of(events))).toHaveLength(10);
    expect(a.notifications.filter(of(heads))).toHaveLength(5);
    expect(stats().backfilledEvents).toBeGreaterThanOrEqual(3 + 6);
  });

  it('an upstream cut before a block_id subscription delivered anything: the gap is filled from where it started', async () => {
    await rpcResult(devchain.http, 'devnet_createBlock');
    const c = await client();
    const id = await c.result('starknet_subscribeEvents', { from_address: STRK, block_id: 'latest' });
    await sleep(100);
    expect(c.notifications.filter(of(id))).toEqual([]);
    const reconnects = stats().reconnects;
    proxy.refuse(true);
    proxy.dropAll();
    const missed = await transfer();
    proxy.refuse(false);
    const deadline = Date.now() + 10_000;
    while (stats().reconnects === reconnects && Date.now() < deadline) await sleep(20);
    const live = await transfer();
    const got = await c.waitFor(of(id), 4);
    expect(got.map((n) => n.params.result.transaction_hash)).toEqual([missed, missed, live, live]);
    await sleep(100);
    expect(c.notifications.filter(of(id))).toHaveLength(4);
    await c.result('starknet_unsubscribe', [id]);
  });

  it('PRE_CONFIRMED then ACCEPTED_ON_L2 (a chain that mines on demand): events twice, once per finality; status and new transactions in order', async () => {
    const c = await client(onDemandWsUrl);
    const d = await client(onDemandWsUrl);
    const events = await c.result('starknet_subscribeEvents', { from_address: STRK, finality_status: 'PRE_CONFIRMED' });
    const same = await d.result('stk_subscribeEvents', { from_address: [STRK], finality_status: 'PRE_CONFIRMED' });
    const txs = await c.result('starknet_subscribeNewTransactions', {
      finality_status: ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
    });
    const [a, b] = await rpcResult(onDemand.rpcUrl, 'devnet_getPredeployedAccounts');
    const t = invokeV3(a.address, transferCalldata(STRK, b.address, 9n), 0n, a.private_key);
    const status = await c.result('starknet_subscribeTransactionStatus', { transaction_hash: t.hash });
    await rpcResult(onDemand.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    const pre = await c.waitFor(of(events), 2);
    expect(pre.map((n) => n.params.result.finality_status)).toEqual(['PRE_CONFIRMED', 'PRE_CONFIRMED']);
    expect(pre[0]!.params.result.block_hash).toBeUndefined();
    await rpcResult(onDemand.rpcUrl, 'devnet_createBlock');
    for (const [cl, id] of [
      [c, events],
      [d, same],
    ] as const) {
      const all = await cl.waitFor(of(id), 4);
      expect(
        all.map((n) => [
          n.params.result.transaction_hash,
          n.params.result.event_index,
          n.params.result.finality_status,
        ]),
      ).toEqual([
        [t.hash, 0, 'PRE_CONFIRMED'],
        [t.hash, 1, 'PRE_CONFIRMED'],
        [t.hash, 0, 'ACCEPTED_ON_L2'],
        [t.hash, 1, 'ACCEPTED_ON_L2'],
      ]);
      expect(typeof all[2]!.params.result.block_hash).toBe('string');
    }
    const statuses = await c.waitFor(of(status), 3);
    expect(statuses.map((n) => n.params.result.status.finality_status)).toEqual([
      'RECEIVED',
      'PRE_CONFIRMED',
      'ACCEPTED_ON_L2',
    ]);
    const newTxs = await c.waitFor(of(txs), 2);
    expect(newTxs.map((n) => [n.params.result.transaction_hash, n.params.result.finality_status])).toEqual([
      [t.hash, 'PRE_CONFIRMED'],
      [t.hash, 'ACCEPTED_ON_L2'],
    ]);
    await sleep(100);
    expect(c.notifications.filter(of(events))).toHaveLength(4);
    expect(d.notifications.filter(of(same))).toHaveLength(4);
  });

  it('events with block_id replay from that block, then go on live', async () => {
    const c = await client();
    const tx = await transfer();
    const at = await head();
    const id = await c.result('stk_subscribeEvents', { from_address: [STRK], block_id: { block_number: at } });
    const replayed = await c.waitFor(of(id), 2);
    expect(replayed.map((n) => n.params.result.transaction_hash)).toEqual([tx, tx]);
    const next = await transfer();
    const all = await c.waitFor(of(id), 4);
    expect(all.slice(2).map((n) => [n.params.result.transaction_hash, n.params.result.block_number])).toEqual([
      [next, at + 1],
      [next, at + 1],
    ]);
    await c.result('starknet_unsubscribe', [id]);
  });

  it('reorgs: a replaced chain (devnet_restart) is one starknet_subscriptionReorg per subscription, live and during an upstream cut', async () => {
    await transfer();
    const c = await client();
    const heads = await c.result('starknet_subscribeNewHeads');
    const events = await c.result('starknet_subscribeEvents', { from_address: STRK });
    const tip = await head();
    const first = (await c.waitFor((n) => of(heads)(n) && n.params.result.block_number === tip))[0]!.params.result;
    const hashAt1 = (await rpcResult(devchain.http, 'starknet_getBlockWithTxHashes', [{ block_number: 1 }])).block_hash;

    // live: the dev chain tells every subscription; the gateway says it once per client subscription
    await rpcResult(devchain.http, 'devnet_restart');
    nonces.clear();
    const reorg = {
      starting_block_hash: hashAt1,
      starting_block_number: 1,
      ending_block_hash: first.block_hash,
      ending_block_number: tip,
    };
    const isReorg = (n: { method: string }) => n.method === 'starknet_subscriptionReorg';
    const [h] = await c.waitFor((n) => of(heads)(n) && isReorg(n));
    expect(h!.params.result).toEqual(reorg);
    const [e] = await c.waitFor((n) => of(events)(n) && isReorg(n));
    expect(e!.params.result).toEqual(reorg);
    const tx1 = await transfer();
    const [newHead] = await c.waitFor((n) => of(heads)(n) && !isReorg(n) && n.params.result.block_number === 1);
    expect(newHead!.params.result.block_hash).not.toBe(hashAt1);
    await c.waitFor((n) => of(events)(n) && n.params.result.transaction_hash === tx1, 2);
    await sleep(100);
    expect(c.notifications.filter((n) => isReorg(n))).toHaveLength(2);

    // during a cut: the restart and a new block 1 while the upstream is away; the backfill finds
    // the replaced height by hash, says so once, then gives the new block and its events
    const newHash1 = newHead!.params.result.block_hash;
    const seen = c.notifications.length;
    proxy.refuse(true);
    proxy.dropAll();
    await rpcResult(devchain.http, 'devnet_restart');
    nonces.clear();
    // another amount: not the block 1 the gateway saw (same genesis, same nonce)
    const tx2 = await transfer(accounts[0], 2n);
    const reconnects = stats().reconnects;
    proxy.refuse(false);
    const deadline = Date.now() + 10_000;
    while (stats().reconnects === reconnects && Date.now() < deadline) await sleep(20);
    const later = () => c.notifications.slice(seen);
    await c.waitFor((n) => of(events)(n) && n.params.result.transaction_hash === tx2, 2);
    await c.waitFor(() => later().filter((n) => of(heads)(n) && !isReorg(n)).length >= 1);
    await sleep(100);
    const gone = {
      starting_block_hash: newHash1,
      starting_block_number: 1,
      ending_block_hash: newHash1,
      ending_block_number: 1,
    };
    expect(
      later()
        .filter((n) => of(heads)(n))
        .map((n) => [n.method, n.params.result.block_number ?? n.params.result]),
    ).toEqual([
      ['starknet_subscriptionReorg', gone],
      ['starknet_subscriptionNewHeads', 1],
    ]);
    const ev = later().filter((n) => of(events)(n));
    expect(ev.map((n) => n.method)).toEqual([
      'starknet_subscriptionReorg',
      'starknet_subscriptionEvents',
      'starknet_subscriptionEvents',
    ]);
    expect(ev[0]!.params.result).toEqual(gone);
  });

  it('every notification sent in these tests matches the spec 0.10 schema of its method', () => {
    const spec = createSpecValidator(
      new URL('../../../../../../shared/fixtures/starknet-specs-0.10.2/api', import.meta.url).pathname,
    );
    const all = clients.flatMap((c) => c.notifications);
    const methods = new Set(all.map((n) => n.method));
    for (const m of [
      'starknet_subscriptionNewHeads',
      'starknet_subscriptionEvents',
      'starknet_subscriptionTransactionStatus',
      'starknet_subscriptionNewTransaction',
      'starknet_subscriptionNewTransactionReceipts',
      'starknet_subscriptionReorg',
    ]) {
      expect(methods.has(m), m).toBe(true);
    }
    for (const n of all) {
      expect(
        spec.checkParams(n.method.slice('starknet_'.length) as never, n.params),
        `${n.method} ${JSON.stringify(n.params).slice(0, 300)}`,
      ).toBeUndefined();
    }
  });
});
