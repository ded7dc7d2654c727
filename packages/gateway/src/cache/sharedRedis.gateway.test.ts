import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { startGateway } from '../main.js';
import { postJson, rpc, waitForReceipt } from '../test-support/startTestGateway.js';
import { type Probe, queryDuringReorg, warmCache } from './queryDuringReorg.js';
import { type ReorgAnvils, startReorgAnvils } from './startReorgAnvils.js';

// Two gateway instances on one Redis (the real one on this machine, a fresh prefix each), over
// the same anvils: the Redis cache is one cache for both (X-Cache across instances), and a dev
// network's generation lives in Redis, so a write or a reorg through one instance is never
// answered around by the other's cache, whether that cache is the shared Redis store or its
// own memory store.
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let anvils: ReorgAnvils;
let dir: string;
const redis = new Redis(REDIS);
const prefixes: string[] = [];

const hex = (n: number) => `0x${n.toString(16)}`;
const call = async (url: string, method: string, params: unknown = []) => {
  const r = await postJson(url, { jsonrpc: '2.0', id: 1, method, params });
  return { result: r.json.result, error: r.json.error, cache: r.headers.get('x-cache') };
};

async function startInstance(name: string, kind: 'redis' | 'memory', prefix: string) {
  const gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, `${kind}-${name}`),
      devKey: true,
      redis: { url: REDIS, prefix },
      cache: { kind, maxBytes: 4 * 1024 * 1024, headPollMs: 60_000 },
      networks: anvils.networks(),
    }),
  );
  const key = gw.devKey!.key;
  return { gw, prod: `${gw.networks.mainnet!.http}/v3/${key}`, dev: `${gw.networks.devnet!.http}/v3/${key}` };
}

beforeAll(async () => {
  anvils = await startReorgAnvils();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-shared-cache-'));
});

afterAll(async () => {
  await anvils?.stop();
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe.each(['redis', 'memory'] as const)('two gateways on one Redis, cache store %s', (kind) => {
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  const prefix = `nodegate-test-${randomUUID()}:`;
  prefixes.push(prefix);

  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance('a', kind, prefix), startInstance('b', kind, prefix)]);
  });
  afterAll(async () => {
    await a?.gw.close();
    await b?.gw.close();
  });

  if (kind === 'redis')
    it('one cache for both: what one instance kept, the other answers (X-Cache)', async () => {
      const direct = (await rpc(anvils.prod.http, 'eth_getBlockByNumber', ['0x20', true])).result;
      expect(await call(a.prod, 'eth_getBlockByNumber', ['0x20', true])).toMatchObject({
        cache: 'MISS',
        result: direct,
      });
      // kept in Redis off the answer's path: the other instance answers from it as soon as it is there
      let fromB = await call(b.prod, 'eth_getBlockByNumber', ['0x20', true]);
      for (let i = 0; fromB.cache !== 'HIT' && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        fromB = await call(b.prod, 'eth_getBlockByNumber', ['0x20', true]);
      }
      expect(fromB).toMatchObject({ cache: 'HIT', result: direct });
      expect(await call(a.prod, 'eth_getBlockByNumber', ['0x20', true])).toMatchObject({
        cache: 'HIT',
        result: direct,
      });
      // and the other way round, by hash
      expect((await call(b.prod, 'eth_getBlockByHash', [direct.hash, false])).cache).toBe('MISS');
      let fromA = await call(a.prod, 'eth_getBlockByHash', [direct.hash, false]);
      for (let i = 0; fromA.cache !== 'HIT' && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        fromA = await call(a.prod, 'eth_getBlockByHash', [direct.hash, false]);
      }
      expect(fromA.cache).toBe('HIT');
      expect(fromA.result.hash).toBe(direct.hash);
      // the entries are in Redis, counted against the bound
      expect(await redis.zcard(`${prefix}cachelru`)).toBeGreaterThanOrEqual(2);
      expect(Number(await redis.get(`${prefix}cachebytes`))).toBeGreaterThan(0);
    });

  it('a dev write through one instance: the other never answers what it replaced', async () => {
    const addr = `0x${randomUUID().replaceAll('-', '').slice(0, 20).padEnd(40, '3')}`;
    const head = Number.parseInt((await rpc(anvils.dev.http, 'eth_blockNumber')).result, 16);
    // the head by number: anvil_setBalance changes what the node answers there, with no new block
    const at = hex(head);
    expect(await call(b.dev, 'eth_getBalance', [addr, at])).toMatchObject({ cache: 'MISS', result: '0x0' });
    let again = await call(b.dev, 'eth_getBalance', [addr, at]);
    for (let i = 0; again.cache !== 'HIT' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await call(b.dev, 'eth_getBalance', [addr, at]);
    }
    expect(again).toMatchObject({ cache: 'HIT', result: '0x0' });
    // anvil_setBalance changes what the node answers at every height: through A
    await call(a.dev, 'anvil_setBalance', [addr, '0x1234']);
    const direct = (await rpc(anvils.dev.http, 'eth_getBalance', [addr, at])).result;
    expect(direct).toBe('0x1234');
    expect(await call(b.dev, 'eth_getBalance', [addr, at])).toMatchObject({ cache: 'MISS', result: direct });
  });

  it('a reorg through one instance: every request to the other started after it sees the new chain', async () => {
    const node = anvils.dev.http;
    const [from] = (await rpc(node, 'eth_accounts')).result;
    const to = `0x${randomUUID().replaceAll('-', '').slice(0, 20).padEnd(40, '5')}`;
    const tx = (await rpc(node, 'eth_sendTransaction', [{ from, to, value: '0x99' }])).result;
    const n = Number.parseInt((await waitForReceipt(node, tx)).blockNumber, 16);
    await rpc(node, 'evm_mine');
    const probes: Probe[] = [{ method: 'eth_getTransactionReceipt', params: [tx] }];
    for (let h = n - 1; h <= n + 1; h++) {
      probes.push({ method: 'eth_getBlockByNumber', params: [hex(h), false] });
      probes.push({ method: 'eth_getBalance', params: [to, hex(h)] });
    }
    // B's cache takes every probe
    await warmCache(b.dev, probes);
    const check = await queryDuringReorg({
      gatewayUrl: b.dev,
      nodeUrl: node,
      probes,
      act: () => rpc(a.dev, 'anvil_reorg', [2, []]),
      // two of the seven probes are final (cached); 100 answers hold some 28 hits
      minAnswersBefore: 100,
    });
    expect(check.changed).toBeGreaterThan(2);
    expect(check.hitsBefore).toBeGreaterThan(20);
    expect(check.hitsAfter).toBeGreaterThan(0);
    expect(check.stale).toEqual([]);
  });
});
