import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from './config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from './embedded/startAnvil.js';
import { ethMethods } from './families/eth/ethMethods.js';
import { startGateway } from './main.js';
import { postJson } from './test-support/startTestGateway.js';
import { admin, createTestKey } from './test-support/testKeys.js';

let anvil: EmbeddedProcess;
let dataDir: string;
beforeAll(async () => {
  anvil = await startAnvil();
  dataDir = await mkdtemp(join(tmpdir(), 'nodegate-usage-'));
});
afterAll(async () => {
  await anvil?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const config = () =>
  validateConfig({
    listen: '127.0.0.1:0',
    dataDir,
    // every call reaches the upstream (a cache hit is recorded without one)
    cache: { enabled: false },
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http }],
      },
    ],
  });

describe('usage through the gateway', () => {
  it('records every request per key, network and method, refusals with their reason; a graceful stop loses nothing', async () => {
    const first = await startGateway(config());
    const k = await createTestKey(first, { settings: { allowedMethods: ['eth_chainId', 'eth_blockNumber'] } });
    const other = await createTestKey(first);
    const url = (key: string) => `${first.networks['eth-devnet']!.http}/v3/${key}`;
    const call = (method: string) => ({ jsonrpc: '2.0', id: 1, method, params: [] });
    for (let i = 0; i < 5; i++) expect((await postJson(url(k.key), call('eth_chainId'))).status).toBe(200);
    expect((await postJson(url(k.key), [call('eth_blockNumber'), call('eth_blockNumber')])).status).toBe(200);
    expect((await postJson(url(k.key), call('eth_gasPrice'))).status).toBe(403);
    expect((await postJson(url(other.key), call('eth_chainId'))).status).toBe(200);
    // stop right away: the recorder's last second is flushed by close()
    await first.close();

    const second = await startGateway(config());
    try {
      const from = Date.now() - 3_600_000;
      const to = Date.now() + 60_000;
      const usage = await admin(second, 'GET', `/usage?key=${k.key}&from=${from}&to=${to}&bucket=1h`);
      expect(usage.totals.requests).toBe(8);
      expect(usage.totals.credits).toBe(5 * ethMethods.eth_chainId.credits + 2 * ethMethods.eth_blockNumber.credits);
      expect(usage.totals.errors).toBe(1);
      const top = await admin(second, 'GET', `/usage/top-methods?key=${k.key}&from=${from}&to=${to}`);
      expect(top.map((m: { method: string; requests: number }) => [m.method, m.requests])).toEqual([
        ['eth_chainId', 5],
        ['eth_blockNumber', 2],
        ['eth_gasPrice', 1],
      ]);
      const recent = await admin(second, 'GET', `/keys/${k.key}/requests?limit=20`);
      expect(recent).toHaveLength(8);
      expect(recent[0]).toMatchObject({
        method: 'eth_gasPrice',
        status: 403,
        errorCode: -32002,
        refusal: 'method',
        network: 'eth-devnet',
      });
      expect(recent.find((r: { method: string }) => r.method === 'eth_chainId')).toMatchObject({
        status: 200,
        errorCode: null,
        upstream: 'anvil',
        credits: ethMethods.eth_chainId.credits,
      });
      // the other key's usage is its own
      const theirs = await admin(second, 'GET', `/usage?key=${other.key}&from=${from}&to=${to}&bucket=1h`);
      expect(theirs.totals.requests).toBe(1);
    } finally {
      await second.close();
    }
  });
});
