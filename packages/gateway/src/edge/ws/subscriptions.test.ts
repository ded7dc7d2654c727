import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createWalletClient, encodeAbiParameters, http, pad } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, rpc, startTestGateway, waitForReceipt } from '../../test-support/startTestGateway.js';
import { STORAGE_CONTRACT_BYTECODE, VALUE_SET_TOPIC } from '../../test-support/storageContract.js';

const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

/** A TCP proxy in front of anvil's WebSocket that counts open upstream connections. */
let proxy: Server;
const open = new Set<Socket>();
let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway({
    wsUpstream: (anvilWs) => {
      const target = new URL(anvilWs);
      proxy = createServer((client) => {
        open.add(client);
        const upstream = connect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        const done = () => {
          open.delete(client);
          client.destroy();
          upstream.destroy();
        };
        client.on('close', done).on('error', done);
        upstream.on('close', done).on('error', done);
      });
      return new Promise((resolve) =>
        proxy.listen(0, '127.0.0.1', () => resolve(`ws://127.0.0.1:${(proxy.address() as AddressInfo).port}`)),
      );
    },
  });
});
afterAll(async () => {
  proxy?.close();
  await t?.stop();
});

function client(url: string) {
  const ws = new WebSocket(url);
  const messages: any[] = [];
  const waiters: Array<{ match: (m: any) => boolean; resolve: (m: any) => void }> = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    const i = waiters.findIndex((w) => w.match(m));
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
    else messages.push(m);
  });
  const next = (match: (m: any) => boolean, timeoutMs = 10_000) =>
    new Promise<any>((resolve, reject) => {
      const found = messages.findIndex(match);
      if (found >= 0) return resolve(messages.splice(found, 1)[0]);
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  const ready = new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const call = async (id: number, method: string, params: unknown[]) => {
    await ready;
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return next((m) => m.id === id);
  };
  return { ws, next, call, ready };
}

const waitFor = async (cond: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('eth_subscribe over WebSocket', () => {
  it('newHeads arrives after a block is mined', async () => {
    const c = client(t.wsUrl);
    const sub = await c.call(1, 'eth_subscribe', ['newHeads']);
    expect(sub.result).toMatch(/^0x[0-9a-f]+$/);
    const mined = await rpc(t.rpcUrl, 'evm_mine', []);
    expect(mined.error).toBeUndefined();
    const head = await c.next((m) => m.method === 'eth_subscription');
    expect(head.params.subscription).toBe(sub.result);
    const latest = (await rpc(t.rpcUrl, 'eth_getBlockByNumber', ['latest', false])).result;
    expect(head.params.result.number).toBe(latest.number);
    expect(head.params.result.hash).toBe(latest.hash);
    const unsub = await c.call(2, 'eth_unsubscribe', [sub.result]);
    expect(unsub.result).toBe(true);
    c.ws.close();
  });

  it('logs arrive for a matching event', async () => {
    const wallet = createWalletClient({ account, chain: foundry, transport: http(t.rpcUrl) });
    const deploy = await wallet.deployContract({ abi: [], bytecode: STORAGE_CONTRACT_BYTECODE });
    const contract = (await waitForReceipt(t.rpcUrl, deploy)).contractAddress;
    const c = client(t.wsUrl);
    const sub = await c.call(1, 'eth_subscribe', ['logs', { address: contract, topics: [VALUE_SET_TOPIC] }]);
    expect(sub.error).toBeUndefined();
    const tx = await wallet.sendTransaction({
      to: contract,
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account.address, 99n]),
    });
    const log = await c.next((m) => m.method === 'eth_subscription');
    expect(log.params.subscription).toBe(sub.result);
    expect(log.params.result.transactionHash).toBe(tx);
    expect(log.params.result.topics).toEqual([VALUE_SET_TOPIC]);
    expect(log.params.result.data).toBe(pad('0x63'));
    c.ws.close();
  });

  it('bad subscription params are -32602; plain methods work over the same socket', async () => {
    const c = client(t.wsUrl);
    expect((await c.call(1, 'eth_subscribe', ['newBlocks'])).error.code).toBe(-32602);
    expect((await c.call(2, 'eth_chainId', [])).result).toBe('0x7a69');
    c.ws.send('{not json');
    expect((await c.next((m) => m.id === null)).error.code).toBe(-32700);
    c.ws.close();
  });

  it('closing the client ends its upstream subscription connection', async () => {
    await waitFor(() => open.size === 0);
    const c = client(t.wsUrl);
    await c.call(1, 'eth_subscribe', ['newHeads']);
    await c.call(2, 'eth_subscribe', ['newPendingTransactions']);
    expect(open.size).toBe(1);
    c.ws.close();
    await waitFor(() => open.size === 0);
    expect(open.size).toBe(0);
  });

  it('refuses the upgrade with 401 for a bad key and 404 for an unknown network', async () => {
    const status = (url: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => {});
      });
    expect(await status(t.wsUrl.replace(t.key, '0'.repeat(32)))).toBe(401);
    expect(await status(t.wsUrl.replace('/eth-devnet/', '/nope/'))).toBe(404);
    expect(await status(t.wsUrl)).toBe(101);
  });
});
