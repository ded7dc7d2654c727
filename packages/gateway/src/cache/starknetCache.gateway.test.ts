import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StarknetTestGateway, startStarknetTestGateway } from '../test-support/startStarknetTestGateway.js';
import { postJson } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';

// The response cache on Starknet networks, through a real gateway over the real dev chain: only
// answers that are final by themselves are kept (classes by hash, chainId, L1-accepted blocks and
// receipts; the dev chain never reaches ACCEPTED_ON_L1, so its blocks are never kept).
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

  it('blocks that are not accepted on L1, the head and state reads are never kept', async () => {
    const head = (await rpc(t.directUrl, 'starknet_blockHashAndNumber', {})).result;
    for (const [method, params] of [
      ['starknet_getBlockWithTxHashes', { block_id: { block_hash: head.block_hash } }],
      ['starknet_getBlockWithTxHashes', { block_id: 'latest' }],
      ['starknet_blockNumber', {}],
      ['starknet_getNonce', { block_id: 'latest', contract_address: account }],
    ] as const) {
      await call(t.prodRpcUrl, method, params);
      const again = await call(t.prodRpcUrl, method, params);
      expect(again.error, method).toBeUndefined();
      expect(again.cache, method).not.toBe('HIT');
    }
  });
});
