import { describe, expect, it } from 'vitest';
import { starknetMethods } from '../families/starknet/starknetMethods.js';
import type { MethodTraits } from '../families/types.js';
import { TTL } from './planCacheEntry.js';
import { planStarknetCacheEntry } from './planStarknetCacheEntry.js';

const plan = (name: string, params: unknown, client = `starknet_${name}`, epoch = 0) =>
  planStarknetCacheEntry(
    'sn',
    client,
    `starknet_${name}`,
    params,
    (starknetMethods as Record<string, MethodTraits>)[name]!,
    epoch,
  );
const blockHash = { block_hash: '0x1' };

describe('planStarknetCacheEntry', () => {
  it('keeps classes by hash and chainId, whatever the order of named params', () => {
    const a = plan('getClass', { block_id: 'latest', class_hash: '0xabc' })!;
    const b = plan('getClass', { class_hash: '0xabc', block_id: 'latest' })!;
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe(plan('getClass', { block_id: 'latest', class_hash: '0xabd' })!.key);
    expect(a.keep({ abi: '[]', sierra_program: [] })).toEqual({ ttlMs: TTL.final });
    expect(a.keep(null)).toBeUndefined();
    expect(plan('chainId', {})!.keep('0x534e5f5345504f4c4941')).toEqual({ ttlMs: TTL.final });
  });

  it('keeps receipts and blocks only once accepted on L1, blocks only named by hash or number', () => {
    const receipt = plan('getTransactionReceipt', { transaction_hash: '0x5' })!;
    expect(receipt.keep({ finality_status: 'ACCEPTED_ON_L1' })).toEqual({ ttlMs: TTL.final });
    expect(receipt.keep({ finality_status: 'ACCEPTED_ON_L2' })).toBeUndefined();
    expect(receipt.keep({ finality_status: 'PRE_CONFIRMED' })).toBeUndefined();
    const block = plan('getBlockWithTxs', { block_id: blockHash })!;
    expect(block.keep({ status: 'ACCEPTED_ON_L1' })).toEqual({ ttlMs: TTL.final });
    expect(block.keep({ status: 'ACCEPTED_ON_L2' })).toBeUndefined();
    expect(plan('getBlockWithTxs', { block_id: { block_number: 3 } })!.keep({ status: 'ACCEPTED_ON_L1' })).toEqual({
      ttlMs: TTL.final,
    });
    expect(plan('getBlockWithTxs', { block_id: 'latest' })).toBeUndefined();
    expect(plan('getBlockWithTxs', { block_id: 'l1_accepted' })).toBeUndefined();
  });

  it('never plans head calls, state reads, writes or calls the table marks never', () => {
    for (const [name, params] of [
      ['blockNumber', {}],
      ['specVersion', {}],
      ['getNonce', { block_id: 'latest', contract_address: '0x1' }],
      ['getStorageAt', { block_id: blockHash, contract_address: '0x1', key: '0x0' }],
      ['call', { block_id: blockHash, request: {} }],
      ['getTransactionStatus', { transaction_hash: '0x5' }],
      ['addInvokeTransaction', { invoke_transaction: {} }],
    ] as const) {
      expect(plan(name, params), name).toBeUndefined();
    }
  });

  it('keys the client name and the epoch, never anything else of the request', () => {
    const p = { block_id: 'latest', class_hash: '0xabc' };
    expect(plan('getClass', p, 'stk_getClass')!.key).not.toBe(plan('getClass', p)!.key);
    expect(plan('getClass', p, 'starknet_getClass', 1)!.key).not.toBe(plan('getClass', p)!.key);
    expect(plan('getClass', p)!.key).toBe('sn|0|starknet_getClass|{"block_id":"latest","class_hash":"0xabc"}');
  });
});
