import { describe, expect, it } from 'vitest';
import { eventsQuery } from './eventsQuery.js';

describe('eventsQuery', () => {
  it('reads both ends, the chunk size and the token; the spec defaults when absent', () => {
    expect(
      eventsQuery({ filter: { from_block: { block_number: 5 }, to_block: 'latest', chunk_size: 10 } }),
    ).toMatchObject({
      from: { kind: 'number', n: 5 },
      to: { kind: 'tag', tag: 'latest' },
      chunk: 10,
      token: undefined,
    });
    expect(eventsQuery({ filter: { chunk_size: 1, continuation_token: 't' } }, 'pending')).toMatchObject({
      from: { kind: 'number', n: 0 },
      to: { kind: 'tag', tag: 'pending' },
      token: 't',
    });
    expect(eventsQuery({ filter: { from_block: { block_hash: '0x1' }, chunk_size: 1 } })?.from).toEqual({
      kind: 'hash',
    });
  });

  it('leaves params it does not read to the upstream', () => {
    for (const p of [
      undefined,
      [],
      { filter: null },
      { filter: { chunk_size: 0 } },
      { filter: { chunk_size: 1, from_block: 'earliest' } },
      { filter: { chunk_size: 1, to_block: { block_number: -1 } } },
      { filter: { chunk_size: 1, continuation_token: 5 } },
    ])
      expect(eventsQuery(p)).toBeUndefined();
  });
});
