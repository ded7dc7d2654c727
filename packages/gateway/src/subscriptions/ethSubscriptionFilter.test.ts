import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/GatewayError.js';
import { ethSubscriptionFilter } from './ethSubscriptionFilter.js';

const A = '0x00000000000000000000000000000000000000Aa';
const B = '0x00000000000000000000000000000000000000bb';
const T1 = `0x${'11'.repeat(32)}`;
const T2 = `0x${'2F'.repeat(32)}`;

describe('ethSubscriptionFilter', () => {
  it('gives equal filters one key however they are spelt', () => {
    const key = (options: unknown) => ethSubscriptionFilter(['logs', options]).key;
    expect(key({ address: [A, B] })).toBe(key({ address: [B.toUpperCase().replace('0X', '0x'), A, A] }));
    expect(key({ address: A })).toBe(key({ address: [A.toLowerCase()] }));
    expect(key({ topics: [T1, null, null] })).toBe(key({ topics: [[T1]] }));
    expect(key({ topics: [null, [T2, T1]] })).toBe(key({ topics: [null, [T1, T2.toLowerCase(), T1]] }));
    expect(key({})).toBe(key({ address: [], topics: [] }));
    expect(ethSubscriptionFilter(['logs']).key).toBe(key({}));
  });

  it('keeps different filters apart', () => {
    const key = (options: unknown) => ethSubscriptionFilter(['logs', options]).key;
    expect(key({ address: A })).not.toBe(key({ address: B }));
    expect(key({ topics: [T1] })).not.toBe(key({ topics: [null, T1] }));
    expect(key({ address: A })).not.toBe(key({ address: [A, B] }));
    expect(ethSubscriptionFilter(['newPendingTransactions', true]).key).not.toBe(
      ethSubscriptionFilter(['newPendingTransactions']).key,
    );
  });

  it('sends the canonical filter upstream', () => {
    expect(ethSubscriptionFilter(['logs', { address: [B, A], topics: [T1, null] }]).upstreamParams).toEqual([
      'logs',
      { address: [A.toLowerCase(), B], topics: [T1] },
    ]);
    expect(ethSubscriptionFilter(['newHeads']).upstreamParams).toEqual(['newHeads']);
  });

  it('refuses filters it cannot share with -32602', () => {
    for (const bad of [
      ['logs', { address: '0x12' }],
      ['logs', { topics: [1] }],
      ['logs', { topics: [T1, T1, T1, T1, T1] }],
      ['logs', { fromBlock: '0x1' }],
      ['logs', 'nope'],
      ['newBlocks'],
    ]) {
      let error: unknown;
      try {
        ethSubscriptionFilter(bad);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).code).toBe(-32602);
    }
  });
});
