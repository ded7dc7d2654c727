import { describe, expect, it } from 'vitest';
import { starknetMethods } from '../families/starknet/starknetMethods.js';
import type { MethodTraits } from '../families/types.js';
import type { HeadTracker } from './createHeadTracker.js';
import { TTL } from './planCacheEntry.js';
import { planStarknetCacheEntry } from './planStarknetCacheEntry.js';

const plan = (name: string, params: unknown, client = `starknet_${name}`) =>
  planStarknetCacheEntry(
    'sn',
    client,
    `starknet_${name}`,
    params,
    (starknetMethods as Record<string, MethodTraits>)[name]!,
  );
const blockHash = { block_hash: '0x1' };

describe('planStarknetCacheEntry', () => {
  it('keeps classes by hash and chainId, whatever the order of named params', () => {
    const a = plan('getClass', { block_id: 'latest', class_hash: '0xabc' })!;
    const b = plan('getClass', { class_hash: '0xabc', block_id: 'latest' })!;
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe(plan('getClass', { block_id: 'latest', class_hash: '0xabd' })!.key);
    // a class hash names its content: kept forever (until the LRU evicts it)
    expect(a.keep({ abi: '[]', sierra_program: [] })).toEqual({ ttlMs: Number.POSITIVE_INFINITY });
    expect(plan('getCompiledCasm', { class_hash: '0xabc' })!.keep({ bytecode: [] })).toEqual({
      ttlMs: Number.POSITIVE_INFINITY,
    });
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

  it('keys the client name, never anything else of the request', () => {
    const p = { block_id: 'latest', class_hash: '0xabc' };
    expect(plan('getClass', p, 'stk_getClass')!.key).not.toBe(plan('getClass', p)!.key);
    expect(plan('getClass', p)!.key).toBe('sn|starknet_getClass|{"block_id":"latest","class_hash":"0xabc"}');
  });
});

describe('planStarknetCacheEntry with a head tracker', () => {
  // what a tracker knows after seeing heights 8..12, with height 10 accepted on L1
  const hashes = new Map([8, 9, 10, 11, 12].map((n) => [n, `0x${(0xb00 + n).toString(16)}`]));
  const heads: HeadTracker = {
    latest: () => ({ number: 12, hash: hashes.get(12)! }),
    finalized: () => 10,
    hashAt: (n) => hashes.get(n),
    wasReplaced: () => false,
    reorgs: () => 0,
    refresh: async () => undefined,
    close: () => undefined,
  };
  const withHeads = (name: string, params: unknown, dev = false) =>
    planStarknetCacheEntry(
      'sn',
      `starknet_${name}`,
      `starknet_${name}`,
      params,
      (starknetMethods as Record<string, MethodTraits>)[name]!,
      heads,
      dev,
    );

  it('keeps by number for good at or below the L1-accepted height, tagged above it, nothing past the head', () => {
    const fin = withHeads('getStorageAt', { block_id: { block_number: 10 }, contract_address: '0x1', key: '0x2' })!;
    expect(fin.keep('0x5')).toEqual({ ttlMs: TTL.final });
    const recent = withHeads('getBlockWithTxHashes', { block_id: { block_number: 11 } })!;
    expect(recent.keep({ block_number: 11, block_hash: '0x0B0B' })).toEqual({
      ttlMs: TTL.unfinal,
      tag: 'blk:0xb0b',
      block: { number: 11, hash: '0xb0b' },
    });
    // the node answered another block at that height (a reorg the tracker has not seen): not kept
    expect(recent.keep({ block_number: 11, block_hash: '0xdead' })).toBeUndefined();
    // past the head: only what the block says of itself (accepted on L1) could keep it
    const ahead = withHeads('getBlockWithTxHashes', { block_id: { block_number: 13 } })!;
    expect(ahead.keep({ block_number: 13, block_hash: '0xd', status: 'ACCEPTED_ON_L2' })).toBeUndefined();
    expect(withHeads('getNonce', { block_id: 'latest', contract_address: '0x1' })).toBeUndefined();
    // by hash: tagged with that hash, one spelling
    const byHash = withHeads('getNonce', { block_id: { block_hash: '0x00ABC' }, contract_address: '0x1' })!;
    expect(byHash.keep('0x1')).toEqual({ ttlMs: TTL.unfinal, tag: 'blk:0xabc', block: { hash: '0xabc' } });
  });

  it('keeps head calls with the head they saw, on production networks only', () => {
    const head = withHeads('blockNumber', {})!;
    expect(head.key).toContain(hashes.get(12));
    expect(head.keep(12)).toEqual({
      ttlMs: TTL.head,
      tag: `head:${hashes.get(12)}`,
      block: { number: 12, hash: hashes.get(12) },
    });
    expect(withHeads('blockNumber', {}, true)).toBeUndefined();
  });
});
