import { describe, expect, it } from 'vitest';
import { LONG_GENERIC_IDS } from './constants.js';
import { decodeGenericId } from './decodeGenericId.js';
import { encodeGenericId } from './encodeGenericId.js';

describe('generic ids', () => {
  it('are short strings: big-endian UTF-8 bytes', () => {
    expect(encodeGenericId('felt252_add')).toBe(BigInt(`0x${Buffer.from('felt252_add').toString('hex')}`));
    expect(decodeGenericId(0x7374727563745f636f6e737472756374n)).toBe('struct_construct');
    expect(decodeGenericId(encodeGenericId('u128_overflowing_add'))).toBe('u128_overflowing_add');
  });

  it('longer than 31 bytes are the starknet_keccak of a known name', () => {
    expect(LONG_GENERIC_IDS.size).toBe(9);
    for (const [name, hash] of LONG_GENERIC_IDS) {
      expect(Buffer.byteLength(name)).toBeGreaterThan(31);
      expect(encodeGenericId(name)).toBe(hash);
      expect(decodeGenericId(hash)).toBe(name);
    }
  });

  it('refuses an unknown long name and a felt that is neither', () => {
    expect(() => encodeGenericId('x'.repeat(32))).toThrow(/longer than 31/);
    expect(() => decodeGenericId(0xffn)).toThrow(/neither a known long id nor UTF-8/);
    expect(decodeGenericId(0xffn, new Map([[0xffn, 'some_long_name']]))).toBe('some_long_name');
  });
});
