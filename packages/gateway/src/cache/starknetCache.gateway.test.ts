import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StarknetTestGateway, startStarknetTestGateway } from '../test-support/startStarknetTestGateway.js';
import { postJson } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';

// The response cache on Starknet networks, through a real gateway over the real dev chain: answers
// final by themselves (classes by hash, chainId, L1-accepted blocks and receipts), and with the
// network's head tracker blocks named by hash or by a known height, and head calls until the next
// head (production networks only).
let t: StarknetTestGateway;
let classHash: string;
let account: string;

const call = async (url: string, method: string, params: unknown) => {
  const r = await postJson(url, { jsonrpc: '2.0', id: 1, method, params });
  return { result: r.json.result, error: r.json.error, cache: r.headers.get('x-cache') };
};

const rpc = async (url: string, method: string, params: unknown) =>
  (await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).json;

beforeAll(async () => {
  t = await startStarknetTestGateway();
  const accounts = (await rpc(t.directUrl, 'devnet_getPredeployedAccounts', {})).result;
  account = accounts[0].address;
  classHash = (await rpc(t.directUrl, 'starknet_getClassHashAt', { block_id: 'latest', contract_address: account }))
    .result;
});

afterAll(async () => {
  await t?.stop();
});

describe('the response cache on Starknet', () => {
  it('a class by its hash is answered from the cache the second time, equal to the node, for two keys', async () => {
    const params = { block_id: 'latest', class_hash: classHash };
    const first = await call(t.prodRpcUrl, 'starknet_getClass', params);
    expect(first.cache).toBe('MISS');
    const direct = (await rpc(t.directUrl, 'starknet_getClass', params)).result;
    expect(first.result).toEqual(direct);
    // the same call positionally, and with another key: one entry, no key in it
    const second = await call(t.prodRpcUrl, 'starknet_getClass', ['latest', classHash]);
    expect(second.cache).toBe('HIT');
    expect(second.result).toEqual(direct);
    const other = await createTestKey(t.gw);
    const url = t.prodRpcUrl.replace(/\/v3\/[^/]+$/, `/v3/${other.key}`);
    const third = await call(url, 'starknet_getClass', params);
    expect(third.cache).toBe('HIT');
    expect(third.result).toEqual(direct);
    // a bad key is still refused before the cache answers
    const refused = await call(t.prodRpcUrl.replace(/\/v3\/[^/]+$/, '/v3/not-a-key'), 'starknet_getClass', params);
    expect(refused.result).toBeUndefined();
    expect(refused.cache).toBeNull();
  });

  it('an undeclared class (an error) is never kept', async () => {
    const params = { block_id: 'latest', class_hash: '0x1234' };
    const a = await call(t.prodRpcUrl, 'starknet_getClass', params);
    const b = await call(t.prodRpcUrl, 'starknet_getClass', params);
    expect(a.error).toBeDefined();
    expect(b.error).toBeDefined();
    expect(b.cache).toBe('MISS');
  });

  it('stk_ and starknet_ names of one method are kept apart (their shapes differ)', async () => {
    const params = { block_id: 'latest', class_hash: classHash };
    const spec = await call(t.prodRpcUrl, 'starknet_getClass', params);
    const seed = await call(t.prodRpcUrl, 'stk_getClass', params);
    expect(seed.cache).toBe('MISS');
    expect((await call(t.prodRpcUrl, 'stk_getClass', params)).cache).toBe('HIT');
    expect(spec.result).toBeDefined();
  });

  it('blocks by hash, and by number at a height the head tracker knows, are kept; latest and state at latest never', async () => {
    const head = (await rpc(t.directUrl, 'starknet_blockHashAndNumber', {})).result;
    // the tracker has seen this head once a head call on the production network is kept with it
    await waitForTrackedHead(head.block_number);
    for (const [method, params] of [
      ['starknet_getBlockWithTxHashes', { block_id: { block_hash: head.block_hash } }],
      ['starknet_getBlockWithTxHashes', { block_id: { block_number: head.block_number } }],
      ['starknet_getStateUpdate', { block_id: { block_number: head.block_number } }],
      ['starknet_getNonce', { block_id: { block_hash: head.block_hash }, contract_address: account }],
    ] as const) {
      const first = await call(t.prodRpcUrl, method, params);
      const again = await call(t.prodRpcUrl, method, params);
      expect(again.error, method).toBeUndefined();
      expect(again.cache, method).toBe('HIT');
      expect(again.result, method).toEqual((await rpc(t.directUrl, method, params)).result);
      expect(again.result, method).toEqual(first.result);
    }
    for (const [method, params] of [
      ['starknet_getBlockWithTxHashes', { block_id: 'latest' }],
      ['starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' }],
      ['starknet_getNonce', { block_id: 'latest', contract_address: account }],
      // a height past the head: not a block yet
      ['starknet_getBlockWithTxHashes', { block_id: { block_number: head.block_number + 1000 } }],
    ] as const) {
      await call(t.prodRpcUrl, method, params);
      const again = await call(t.prodRpcUrl, method, params);
      expect(again.cache, method).not.toBe('HIT');
    }
  });

  it('head calls are kept until the next head on a production network, never on a dev network', async () => {
    const before = (await rpc(t.directUrl, 'starknet_blockNumber', {})).result as number;
    await waitForTrackedHead(before);
    expect((await call(t.prodRpcUrl, 'starknet_blockNumber', {})).result).toBe(before);
    const hit = await call(t.prodRpcUrl, 'starknet_blockNumber', {});
    expect(hit).toMatchObject({ cache: 'HIT', result: before });
    // on the dev network every call goes to the node
    await call(t.rpcUrl, 'starknet_blockNumber', {});
    expect((await call(t.rpcUrl, 'starknet_blockNumber', {})).cache).not.toBe('HIT');
    // a new block (made behind the gateway's back): once the tracker polls, the next head answers
    await rpc(t.directUrl, 'devnet_createBlock', {});
    const deadline = Date.now() + 5_000;
    let now = await call(t.prodRpcUrl, 'starknet_blockNumber', {});
    while (now.result === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      now = await call(t.prodRpcUrl, 'starknet_blockNumber', {});
    }
    expect(now.result).toBe(before + 1);
    // and never goes back to the old head
    for (let i = 0; i < 5; i++) expect((await call(t.prodRpcUrl, 'starknet_blockNumber', {})).result).toBe(before + 1);
  });
});

/** Waits until a head call on the production network is answered from the cache with head `n`. */
async function waitForTrackedHead(n: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const a = await call(t.prodRpcUrl, 'starknet_blockNumber', {});
    const b = await call(t.prodRpcUrl, 'starknet_blockNumber', {});
    if (a.result === n && b.result === n && b.cache === 'HIT') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the gateway's head tracker did not reach block ${n} within 5 s`);
}
