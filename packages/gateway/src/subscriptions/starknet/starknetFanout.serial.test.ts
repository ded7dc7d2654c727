import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcResult } from '@nodegate/starknet-devchain/testing';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProcess } from '../../embedded/startAnvil.js';
import { startStarknetDevchain } from '../../embedded/startStarknetDevchain.js';
import { type SpawnedGateway, spawnGateway } from '../../test-support/spawnGateway.js';
import { startWsProxy, type WsProxy } from '../startWsProxy.js';

/** Clients on one gateway, all on one Starknet newHeads subscription (half starknet_, half stk_). */
const CLIENTS = 2_000;
const BLOCKS = 5;

let devchain: EmbeddedProcess;
let proxy: WsProxy;
let gateway: SpawnedGateway;
let wsUrl: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-stk-fanout-'));
  devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  proxy = await startWsProxy(devchain.ws!);
  gateway = await spawnGateway({
    devKey: true,
    limits: { ws: { maxConnectionsPerKey: CLIENTS + 100 } },
    networks: [
      {
        name: 'starknet-devnet',
        family: 'starknet',
        dev: true,
        pathPrefix: '/starknet-devnet',
        upstreams: [{ name: 'devchain', http: devchain.http, ws: proxy.url }],
      },
    ],
  });
  wsUrl = `${gateway.ready.networks['starknet-devnet']!.ws}/ws/v3/${gateway.ready.devKey!.key}`;
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await proxy?.close();
  await devchain?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const createBlock = () => rpcResult(devchain.http, 'devnet_createBlock');

describe(`${CLIENTS} Starknet WebSocket clients on one gateway`, () => {
  it('share one upstream newHeads subscription; each gets the current head, then every head once in order, also across an upstream cut', async () => {
    const heads: number[][] = [];
    const sockets: WebSocket[] = [];
    const subscribeOne = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
        const seen: number[] = [];
        heads[i] = seen;
        sockets.push(ws);
        ws.once('error', reject);
        const method = i % 2 === 0 ? 'starknet_subscribeNewHeads' : 'stk_subscribeNewHeads';
        ws.once('open', () => ws.send(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":{}}`));
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.startsWith('{"jsonrpc":"2.0","id":1')) {
            if (text.includes('"error"')) reject(new Error(text));
            else resolve();
            return;
          }
          const m = JSON.parse(text) as { method: string; params: { result: { block_number: number } } };
          if (m.method === 'starknet_subscriptionNewHeads') seen.push(m.params.result.block_number);
        });
      });
    const current: number = await rpcResult(devchain.http, 'starknet_blockNumber');
    const started = performance.now();
    for (let i = 0; i < CLIENTS; i += 250) {
      await Promise.all(Array.from({ length: Math.min(250, CLIENTS - i) }, (_, j) => subscribeOne(i + j)));
    }
    const connectMs = performance.now() - started;
    expect(proxy.methods.filter((m) => m === 'starknet_subscribeNewHeads')).toHaveLength(1);
    expect(proxy.open).toBe(1);
    // the current head first
    const deadline0 = Date.now() + 30_000;
    while (heads.some((h) => h.length < 1)) {
      if (Date.now() > deadline0) throw new Error('not every client got the current head');
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const h of heads) expect(h).toEqual([current]);

    const fanout: number[] = [];
    for (let b = 1; b <= BLOCKS; b++) {
      const made = performance.now();
      await createBlock();
      const deadline = Date.now() + 30_000;
      while (heads.some((h) => h.length < b + 1)) {
        if (Date.now() > deadline) throw new Error(`block ${b}: not every client got it within 30 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      fanout.push(performance.now() - made);
    }
    const expected = Array.from({ length: BLOCKS + 1 }, (_, k) => current + k);
    for (const h of heads) expect(h).toEqual(expected);

    proxy.refuse(true);
    proxy.dropAll();
    for (let b = 0; b < 3; b++) await createBlock();
    const cut = performance.now();
    proxy.refuse(false);
    await createBlock();
    const all = Array.from({ length: BLOCKS + 5 }, (_, k) => current + k);
    const backfillDeadline = Date.now() + 60_000;
    while (heads.some((h) => h.length < all.length)) {
      if (Date.now() > backfillDeadline) throw new Error('not every client got the backfilled heads within 60 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const recoverMs = performance.now() - cut;
    await new Promise((r) => setTimeout(r, 200));
    for (const h of heads) expect(h).toEqual(all);
    expect(proxy.methods.filter((m) => m === 'starknet_subscribeNewHeads')).toHaveLength(2);
    fanout.sort((a, b) => a - b);
    console.info(
      `starknet ws fan-out: ${CLIENTS} clients connected and subscribed in ${(connectMs / 1000).toFixed(1)} s; ` +
        `one head to every client: median ${fanout[Math.floor(BLOCKS / 2)]!.toFixed(0)} ms, max ${fanout.at(-1)!.toFixed(0)} ms; ` +
        `upstream cut for 3 blocks: all ${CLIENTS} clients had the 3 backfilled and the next live head ${(recoverMs / 1000).toFixed(1)} s after the upstream came back`,
    );
    for (const ws of sockets) ws.terminate();
    const deadline = Date.now() + 20_000;
    while (proxy.open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(proxy.open).toBe(0);
  });
});
