import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { rpc } from '../test-support/startTestGateway.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { startWsProxy, type WsProxy } from './startWsProxy.js';

/** Clients on one gateway, all on one newHeads subscription. */
const CLIENTS = 5_000;
const BLOCKS = 10;

let anvil: EmbeddedProcess;
let proxy: WsProxy;
let gateway: SpawnedGateway;
let wsUrl: string;

const rssMb = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startWsProxy(anvil.ws!);
  // its own process, so its time and memory are its own
  gateway = await spawnGateway({
    devKey: true,
    limits: { ws: { maxConnectionsPerKey: CLIENTS + 100 } },
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http, ws: proxy.url }],
      },
    ],
  });
  wsUrl = `${gateway.ready.networks['eth-devnet']!.ws}/ws/v3/${gateway.ready.devKey!.key}`;
});
afterAll(async () => {
  await gateway?.stop();
  await proxy?.close();
  await anvil?.stop();
});

describe(`${CLIENTS} WebSocket clients on one gateway`, () => {
  it('share one upstream newHeads subscription and each receives every head in order, also across an upstream cut', async () => {
    const pid = gateway.child.pid!;
    // past the start-up's own allocations
    await new Promise((r) => setTimeout(r, 3_000));
    const rssBefore = await rssMb(pid);
    const heads: number[][] = [];
    const sockets: WebSocket[] = [];
    const subscribeOne = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
        const seen: number[] = [];
        heads[i] = seen;
        sockets.push(ws);
        ws.once('error', reject);
        ws.once('open', () => ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}'));
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.startsWith('{"jsonrpc":"2.0","id":1')) {
            if (text.includes('"error"')) reject(new Error(text));
            else resolve();
            return;
          }
          const m = JSON.parse(text) as { params: { result: { number: string } } };
          seen.push(Number(m.params.result.number));
        });
      });
    const started = performance.now();
    for (let i = 0; i < CLIENTS; i += 250) {
      await Promise.all(Array.from({ length: Math.min(250, CLIENTS - i) }, (_, j) => subscribeOne(i + j)));
    }
    const connectMs = performance.now() - started;
    expect(proxy.methods.filter((m) => m === 'eth_subscribe')).toHaveLength(1);
    expect(proxy.open).toBe(1);
    const rssConnected = await rssMb(pid);

    const first = Number((await rpc(anvil.http, 'eth_blockNumber', [])).result) + 1;
    const expected = Array.from({ length: BLOCKS }, (_, k) => first + k);
    const fanout: number[] = [];
    for (let b = 0; b < BLOCKS; b++) {
      const mined = performance.now();
      await rpc(anvil.http, 'evm_mine', []);
      const deadline = Date.now() + 30_000;
      while (heads.some((h) => h.length < b + 1)) {
        if (Date.now() > deadline) throw new Error(`block ${b + 1}: not every client got it within 30 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      fanout.push(performance.now() - mined);
    }
    for (const h of heads) expect(h).toEqual(expected);
    const rssAfter = await rssMb(pid);

    // the upstream connection cut while 3 blocks are mined: every client still gets each once, in order
    proxy.refuse(true);
    proxy.dropAll();
    for (let b = 0; b < 3; b++) await rpc(anvil.http, 'evm_mine', []);
    const cut = performance.now();
    proxy.refuse(false);
    await rpc(anvil.http, 'evm_mine', []);
    const all = Array.from({ length: BLOCKS + 4 }, (_, k) => first + k);
    const backfillDeadline = Date.now() + 60_000;
    while (heads.some((h) => h.length < all.length)) {
      if (Date.now() > backfillDeadline) throw new Error('not every client got the backfilled blocks within 60 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const recoverMs = performance.now() - cut;
    for (const h of heads) expect(h).toEqual(all);
    expect(proxy.methods.filter((m) => m === 'eth_subscribe')).toHaveLength(2);
    fanout.sort((a, b) => a - b);
    console.info(
      `ws fan-out: ${CLIENTS} clients connected and subscribed in ${(connectMs / 1000).toFixed(1)} s; ` +
        `one head to every client: median ${fanout[Math.floor(BLOCKS / 2)]!.toFixed(0)} ms, max ${fanout.at(-1)!.toFixed(0)} ms; ` +
        `gateway RSS ${rssBefore.toFixed(0)} MB idle, ${rssConnected.toFixed(0)} MB connected, ${rssAfter.toFixed(0)} MB after ${BLOCKS} heads; ` +
        `upstream cut for 3 blocks: all ${CLIENTS} clients had the 3 backfilled and the next live block ${(recoverMs / 1000).toFixed(1)} s after the upstream came back`,
    );
    for (const ws of sockets) ws.terminate();
    const deadline = Date.now() + 20_000;
    while (proxy.open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // the last client gone: the upstream subscription connection closes
    expect(proxy.open).toBe(0);
  });
});
