import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { validateConfig } from '../config/validateConfig.js';
import { startStarknetDevchain } from '../embedded/startStarknetDevchain.js';
import type { StartedBackend } from '../embedded/superviseBackend.js';
import { type RunningGateway, startGateway } from '../main.js';
import { postJson } from '../test-support/startTestGateway.js';
import { type Probe, queryDuringReorg, warmCache } from './queryDuringReorg.js';

// A Starknet production network over the real dev chain (HTTP and WebSocket), with a client
// subscribed to newHeads: the dev chain's own reorg notice (`starknet_subscriptionReorg`, on
// `devnet_restart`) reaches the cache through the hub's upstream subscription, and no block read
// by number from the replaced chain is served after it. The head is polled once a minute only.
let devchain: StartedBackend;
let gw: RunningGateway;
let dir: string;
let url: string;
let client: WebSocket;

const rpc = async (u: string, method: string, params: unknown = {}) =>
  (await postJson(u, { jsonrpc: '2.0', id: 1, method, params })).json;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-stk-reorg-'));
  devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gw'),
      devKey: true,
      cache: { headPollMs: 60_000 },
      networks: [
        {
          name: 'starknet-mainnet',
          family: 'starknet',
          pathPrefix: '/starknet-mainnet',
          upstreams: [{ name: 'devchain', http: devchain.http, ws: devchain.ws }],
        },
      ],
    }),
  );
  url = `${gw.networks['starknet-mainnet']!.http}/v3/${gw.devKey!.key}`;
  client = new WebSocket(`${gw.networks['starknet-mainnet']!.ws}/ws/v3/${gw.devKey!.key}`);
  await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
  const subscribed = new Promise((resolve) =>
    client.on('message', (d) => {
      if (JSON.parse(d.toString()).id === 1) resolve(undefined);
    }),
  );
  client.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_subscribeNewHeads', params: {} }));
  await subscribed;
});

afterAll(async () => {
  client?.close();
  await gw?.close();
  await devchain?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('no stale Starknet block after the chain is replaced', () => {
  it('devnet_restart on the node: blocks by number from the old chain are not served once it is announced', async () => {
    for (let i = 0; i < 3; i++) await rpc(devchain.http, 'devnet_createBlock');
    const top = (await rpc(devchain.http, 'starknet_blockNumber')).result as number;
    const probes: Probe[] = [];
    for (let n = 1; n <= top; n++) {
      probes.push({ method: 'starknet_getBlockWithTxHashes', params: { block_id: { block_number: n } } });
    }
    // the cache takes them (the tracker knows these heights from the heads it heard)
    await warmCache(url, probes, 100);
    const check = await queryDuringReorg({
      gatewayUrl: url,
      nodeUrl: devchain.http,
      probes,
      graceMs: 100,
      act: async () => {
        await rpc(devchain.http, 'devnet_restart');
        await rpc(devchain.http, 'devnet_createBlock');
      },
    });
    expect(check.changed).toBeGreaterThanOrEqual(top - 1);
    expect(check.hitsBefore).toBeGreaterThan(20);
    expect(check.stale).toEqual([]);
    console.log(
      `devnet_restart on the node: last old answer ${check.lastOldAfterMs?.toFixed(0) ?? 'none'} ms after it`,
    );
  });
});
