import { describe, expect, it } from 'vitest';
import { hex, logsQuery } from './logsQuery.js';

describe('logsQuery', () => {
  it('reads both ends: heights, earliest as 0, tags, absent as latest', () => {
    expect(logsQuery([{ fromBlock: '0x10', toBlock: 'finalized', address: '0xab' }])).toEqual({
      filter: { fromBlock: '0x10', toBlock: 'finalized', address: '0xab' },
      from: { kind: 'number', n: 16 },
      to: { kind: 'tag', tag: 'finalized' },
    });
    const q = logsQuery([{ fromBlock: 'earliest' }]);
    expect(q?.from).toEqual({ kind: 'number', n: 0 });
    expect(q?.to).toEqual({ kind: 'tag', tag: 'latest' });
  });

  it('leaves alone what it does not read: a blockHash filter, odd params, unknown tags', () => {
    expect(logsQuery([{ blockHash: `0x${'11'.repeat(32)}` }])).toBeUndefined();
    expect(logsQuery([])).toBeUndefined();
    expect(logsQuery({ fromBlock: '0x1' })).toBeUndefined();
    expect(logsQuery([{ fromBlock: 'yesterday' }])).toBeUndefined();
    expect(logsQuery([{ fromBlock: 12 }])).toBeUndefined();
    expect(logsQuery([{ fromBlock: '0x1' }, 'extra'])).toBeUndefined();
  });

  it('writes heights as JSON-RPC does', () => {
    expect(hex(0)).toBe('0x0');
    expect(hex(199_999)).toBe('0x30d3f');
  });
});
