import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startAnvil } from '../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../main.js';
import { postJson, rpc } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';
import { askAll, type Probe, queryDuringReorg } from './queryDuringReorg.js';

// The finality-aware cache through a real gateway over a real anvil: a production network and a
// dev network on the same chain, the head read every 50 ms.
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let gw: RunningGateway;
let dir: string;
let mainUrl: string;
let devUrl: string;

const call = async (url: string, method: string, params: unknown = []) => {
  const r = await postJson(url, { jsonrpc: '2.0', id: 1, method, params });
  return { result: r.json.result, error: r.json.error, cache: r.headers.get('x-cache') };
};
const hex = (n: number) => `0x${n.toString(16)}`;
/** Polls until `check` passes (the head tracker reads the chain every 50 ms). */
async function eventually(check: () => Promise<void>, timeoutMs = 3_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

beforeAll(async () => {
  anvil = await startAnvil();
  await rpc(anvil.http, 'anvil_mine', ['0x100']);
  dir = await mkdtemp(join(tmpdir(), 'nodegate-cache-'));
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: dir,
      devKey: true,
      cache: { maxBytes: 4 * 1024 * 1024, headPollMs: 50 },
      networks: [
        { name: 'mainnet', family: 'eth', pathPrefix: '/mainnet', upstreams: [{ name: 'anvil', http: anvil.http }] },
        {
          name: 'devnet',
          family: 'eth',
          dev: true,
          pathPrefix: '/devnet',
          upstreams: [{ name: 'anvil', http: anvil.http }],
        },
      ],
    }),
  );
  mainUrl = `${gw.networks.mainnet!.http}/v3/${gw.devKey!.key}`;
  devUrl = `${gw.networks.devnet!.http}/v3/${gw.devKey!.key}`;
  // the tracker has seen the head and the finalized block (latest - 64 on anvil)
  await eventually(async () => {
    expect((await call(mainUrl, 'eth_getBlockByNumber', ['0x10', false])).cache).toBe('MISS');
    expect((await call(mainUrl, 'eth_getBlockByNumber', ['0x10', false])).cache).toBe('HIT');
  });
});

afterAll(async () => {
  await gw?.close();
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the finality-aware cache through the gateway', () => {
  it('a finalized block is answered from the cache the second time, equal to the node, for every key', async () => {
    const direct = (await rpc(anvil.http, 'eth_getBlockByNumber', ['0x20', true])).result;
    const first = await call(mainUrl, 'eth_getBlockByNumber', ['0x20', true]);
    const second = await call(mainUrl, 'eth_getBlockByNumber', ['0x20', true]);
    expect(first).toMatchObject({ cache: 'MISS', result: direct });
    expect(second).toMatchObject({ cache: 'HIT', result: direct });
    // another key gets the same public answer from the cache (nothing of the first key is in it)
    const other = await createTestKey(gw, { plan: 'developer' });
    const third = await call(`${gw.networks.mainnet!.http}/v3/${other.key}`, 'eth_getBlockByNumber', ['0x20', true]);
    expect(third).toMatchObject({ cache: 'HIT', result: direct });
    // by hash too, and the chain id
    expect((await call(mainUrl, 'eth_getBlockByHash', [direct.hash, true])).cache).toBe('MISS');
    expect(await call(mainUrl, 'eth_getBlockByHash', [direct.hash, true])).toMatchObject({
      cache: 'HIT',
      result: direct,
    });
    await call(mainUrl, 'eth_chainId');
    expect(await call(mainUrl, 'eth_chainId')).toMatchObject({ cache: 'HIT', result: '0x7a69' });
  });

  it('never caches latest, pending, null lookups or errors', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await call(mainUrl, 'eth_getBlockByNumber', ['latest', false])).cache).toBe('MISS');
      expect((await call(mainUrl, 'eth_getBalance', [`0x${'11'.repeat(20)}`, 'latest'])).cache).toBe('MISS');
      const missing = await call(mainUrl, 'eth_getTransactionByHash', [`0x${'ab'.repeat(32)}`]);
      expect(missing).toMatchObject({ cache: 'MISS', result: null });
      const future = await call(mainUrl, 'eth_getBlockByNumber', ['0xffffff', false]);
      expect(future).toMatchObject({ cache: 'MISS', result: null });
    }
  });

  it('a reorg on the node with no WebSocket client: never served stale later than the next head poll', async () => {
    // nothing holds the upstream's newHeads here: the gateway learns of the reorg by its poll
    // (every 50 ms); readers query blocks by number and hash all along (queryDuringReorg)
    const snapshot = (await rpc(anvil.http, 'evm_snapshot')).result;
    await rpc(anvil.http, 'evm_mine', []);
    await rpc(anvil.http, 'evm_mine', []);
    const head = Number.parseInt((await rpc(anvil.http, 'eth_blockNumber')).result, 16);
    const probes: Probe[] = [];
    for (let n = head - 2; n <= head; n++) {
      const block = (await rpc(anvil.http, 'eth_getBlockByNumber', [hex(n), false])).result;
      probes.push({ method: 'eth_getBlockByNumber', params: [hex(n), false] });
      probes.push({ method: 'eth_getBlockByHash', params: [block.hash, false] });
    }
    await eventually(async () => {
      await askAll(mainUrl, probes);
      for (const p of probes) expect((await call(mainUrl, p.method, p.params)).cache).toBe('HIT');
    });
    const before = await askAll(anvil.http, probes);
    const timestamp = Number.parseInt(
      (await rpc(anvil.http, 'eth_getBlockByNumber', ['latest', false])).result.timestamp,
      16,
    );
    const check = await queryDuringReorg({
      gatewayUrl: mainUrl,
      nodeUrl: anvil.http,
      probes,
      before,
      graceMs: 1_000,
      afterMs: 1_500,
      // back to the snapshot, and three other blocks (other timestamps) in place of the two
      act: async () => {
        await rpc(anvil.http, 'evm_revert', [snapshot]);
        for (let b = 0; b < 3; b++) await rpc(anvil.http, 'evm_mine', [timestamp + 1_000 + b]);
      },
    });
    expect(check.changed).toBeGreaterThanOrEqual(4);
    expect(check.hitsBefore).toBeGreaterThan(10);
    expect(check.stale).toEqual([]);
    console.log(`reorg found by polling: last old answer ${check.lastOldAfterMs?.toFixed(0) ?? 'none'} ms after it`);
    // and the block by its old hash is no longer served from the cache
    const old = await call(mainUrl, 'eth_getBlockByHash', probes.at(-1)!.params);
    expect(old.cache).toBe('MISS');
  });

  it('on a dev network a write or a dev method through the gateway invalidates what it could change', async () => {
    const addr = `0x${'22'.repeat(20)}`;
    const head = Number.parseInt((await rpc(anvil.http, 'eth_blockNumber')).result, 16);
    const at = hex(head - 70); // finalized
    await call(devUrl, 'eth_getBalance', [addr, at]);
    expect((await call(devUrl, 'eth_getBalance', [addr, at])).cache).toBe('HIT');
    // evm_snapshot / anvil_setBalance through the gateway: nothing cached before them is served after
    await call(devUrl, 'anvil_setBalance', [addr, '0x1234']);
    expect((await call(devUrl, 'eth_getBalance', [addr, at])).cache).toBe('MISS');
  });

  it('/metrics counts hits and misses', async () => {
    const text = await (
      await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.admin.token}` } })
    ).text();
    const hits = Number(/^nodegate_cache_hits_total (\d+)/m.exec(text)?.[1]);
    const misses = Number(/^nodegate_cache_misses_total (\d+)/m.exec(text)?.[1]);
    expect(hits).toBeGreaterThan(3);
    expect(misses).toBeGreaterThan(3);
  });
});
