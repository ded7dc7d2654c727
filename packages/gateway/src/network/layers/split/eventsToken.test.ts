import { describe, expect, it } from 'vitest';
import { ProtocolRpcError } from '../../../errors/GatewayError.js';
import { eventsToken, filterDigest, MAX_TOKEN_LENGTH, readEventsToken } from './eventsToken.js';

const filter = { from_block: { block_number: 0 }, to_block: 'latest', address: '0x1', keys: [['0x2']], chunk_size: 5 };
const digest = filterDigest(filter);
const pos = { from: 0, to: 9_999, at: 2_000, end: 2_999, upstream: 'abc-7', pending: false };

const refused = (token: string, d = digest) => {
  try {
    readEventsToken(token, d);
  } catch (err) {
    return err instanceof ProtocolRpcError && err.code === 33;
  }
  return false;
};

describe('eventsToken / readEventsToken', () => {
  it('reads back what it wrote, bounded in length', () => {
    const t = eventsToken(digest, pos);
    expect(t.length).toBeLessThan(MAX_TOKEN_LENGTH);
    expect(readEventsToken(t, digest)).toEqual(pos);
    expect(readEventsToken(eventsToken(digest, { ...pos, upstream: undefined, pending: true }), digest)).toEqual({
      ...pos,
      upstream: undefined,
      pending: true,
    });
  });

  it('binds the token to the fields that choose events, not to chunk_size or the token itself', () => {
    expect(filterDigest({ ...filter, chunk_size: 9, continuation_token: 'x' })).toBe(digest);
    for (const other of [
      { address: '0x3' },
      { keys: [] },
      { from_block: { block_number: 1 } },
      { to_block: 'l1_accepted' },
    ])
      expect(filterDigest({ ...filter, ...other })).not.toBe(digest);
    expect(refused(eventsToken(digest, pos), filterDigest({ ...filter, address: '0x3' }))).toBe(true);
  });

  it('refuses with 33 whatever it did not issue', () => {
    const enc = (o: unknown) => `ng1.${Buffer.from(JSON.stringify(o)).toString('base64url')}`;
    const body = { d: digest, f: 0, t: 10, a: 2, e: 4 };
    expect(refused(enc(body))).toBe(false);
    for (const t of [
      'abc',
      'ng1.',
      'ng1.*',
      `ng1.${'A'.repeat(MAX_TOKEN_LENGTH)}`,
      enc([1]),
      enc(null),
      enc({ ...body, a: 5, e: 4 }),
      enc({ ...body, e: 11 }),
      enc({ ...body, f: 3 }),
      enc({ ...body, a: -1 }),
      enc({ ...body, a: 2.5 }),
      enc({ ...body, u: '' }),
      enc({ ...body, u: 'x'.repeat(600) }),
      enc({ ...body, u: 7 }),
      enc({ ...body, x: 2 }),
      enc({ ...body, key: 'someone' }),
    ])
      expect(refused(t), t.slice(0, 60)).toBe(true);
  });
});
