import { describe, expect, it } from 'vitest';
import { starknetSubscriptionFilter as filter } from './starknetSubscriptionFilter.js';

const A = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const B = '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
const K = '0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9';

describe('starknetSubscriptionFilter', () => {
  it('equal event filters share a key however they are spelt', () => {
    const key = filter('starknet_subscribeEvents', { from_address: [B, A], keys: [[K]] }).key;
    for (const same of [
      { from_address: [A.toUpperCase().replace('0X', '0x'), B, A], keys: [[K], []] },
      { from_address: [`0x000${B.slice(2)}`, A], keys: [[K]], finality_status: 'ACCEPTED_ON_L2' },
    ]) {
      expect(filter('starknet_subscribeEvents', same).key).toBe(key);
    }
    expect(filter('starknet_subscribeEvents', { from_address: A }).key).toBe(
      filter('starknet_subscribeEvents', { from_address: [A] }).key,
    );
    expect(filter('starknet_subscribeEvents', { from_address: [A, B], finality_status: 'PRE_CONFIRMED' }).key).not.toBe(
      filter('starknet_subscribeEvents', { from_address: [A, B] }).key,
    );
    // key positions keep their order
    expect(filter('starknet_subscribeEvents', { keys: [[K], []] }).key).not.toBe(
      filter('starknet_subscribeEvents', { keys: [[], [K]] }).key,
    );
    const f = filter('starknet_subscribeEvents', { from_address: [B, A], keys: [[K], []] });
    expect(f.upstreamParams).toEqual({ from_address: [A, B], keys: [[K]], finality_status: 'ACCEPTED_ON_L2' });
  });

  it('transaction status by hash value; new transactions and receipts with their default statuses', () => {
    expect(filter('starknet_subscribeTransactionStatus', { transaction_hash: '0x00AbC' }).key).toBe(
      filter('starknet_subscribeTransactionStatus', { transaction_hash: '0xabc' }).key,
    );
    expect(filter('starknet_subscribeNewTransactions', {}).key).toBe(
      filter('starknet_subscribeNewTransactions', { finality_status: ['ACCEPTED_ON_L2'], sender_address: [] }).key,
    );
    expect(filter('starknet_subscribeNewTransactionReceipts', { sender_address: [B, A] }).key).toBe(
      filter('starknet_subscribeNewTransactionReceipts', { sender_address: [A, B, A] }).key,
    );
  });

  it('a block_id filter is never shared, and replays on its first upstream subscribe only', () => {
    const a = filter('starknet_subscribeNewHeads', { block_id: { block_number: 3 } });
    const b = filter('starknet_subscribeNewHeads', { block_id: { block_number: 3 } });
    expect(a.key).not.toBe(b.key);
    expect(a.key).not.toBe(filter('starknet_subscribeNewHeads', {}).key);
    expect(a.upstreamParams).toEqual({ block_id: { block_number: 3 } });
    expect(a.upstreamParams).toEqual({});
  });

  it('refuses bad shapes with -32602', () => {
    const bad: Array<[string, unknown]> = [
      ['starknet_subscribeNewHeads', { block_id: 'pre_confirmed' }],
      ['starknet_subscribeNewHeads', { block_id: 'l1_accepted' }],
      ['starknet_subscribeNewHeads', { block_id: { block_number: -1 } }],
      ['starknet_subscribeEvents', { from_address: 'x' }],
      ['starknet_subscribeEvents', { keys: ['0x1'] }],
      ['starknet_subscribeEvents', { finality_status: 'RECEIVED' }],
      ['starknet_subscribeTransactionStatus', {}],
      ['starknet_subscribeNewTransactions', { finality_status: ['ACCEPTED_ON_L1'] }],
      ['starknet_subscribeNewTransactionReceipts', { finality_status: ['RECEIVED'] }],
      ['starknet_subscribeNewTransactions', { sender_address: A }],
      ['starknet_subscribeNewTransactions', { tags: ['OTHER'] }],
    ];
    for (const [method, params] of bad) {
      let code: unknown;
      try {
        filter(method, params);
      } catch (err) {
        code = (err as { code?: unknown }).code;
      }
      expect(code, JSON.stringify(params)).toBe(-32602);
    }
  });
});
