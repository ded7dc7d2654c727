import { describe, expect, it } from 'vitest';
import { parseHeadNotification } from './parseHeadNotification.js';

describe('parseHeadNotification', () => {
  it('reads an Ethereum newHeads result, hashes in lower case', () => {
    const hash = `0x${'AB'.repeat(32)}`;
    const parent = `0x${'Cd'.repeat(32)}`;
    expect(parseHeadNotification('eth', { number: '0x1f', hash, parentHash: parent, miner: '0x0' })).toEqual({
      number: 31,
      hash: hash.toLowerCase(),
      parentHash: parent.toLowerCase(),
    });
    expect(parseHeadNotification('eth', { number: 31, hash })).toBeUndefined();
    expect(parseHeadNotification('eth', null)).toBeUndefined();
  });

  it('reads a Starknet head and a Starknet reorg notice', () => {
    expect(
      parseHeadNotification('starknet', { block_number: 7, block_hash: '0x00AB', parent_hash: '0x0cd', timestamp: 1 }),
    ).toEqual({ number: 7, hash: '0xab', parentHash: '0xcd' });
    expect(
      parseHeadNotification('starknet', {
        starting_block_hash: '0x1',
        starting_block_number: 5,
        ending_block_hash: '0x2',
        ending_block_number: 7,
      }),
    ).toEqual({ replacedFrom: 5 });
    // a pre-confirmed block has no hash yet
    expect(parseHeadNotification('starknet', { block_number: 8 })).toBeUndefined();
  });
});
