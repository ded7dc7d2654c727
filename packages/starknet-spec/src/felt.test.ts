import { describe, expect, it } from 'vitest';
import { FELT_MAX, FIELD_PRIME, isFelt, isFeltHex, toFelt } from './felt.js';

describe('felt', () => {
  it('is the Stark prime (2^251 + 17·2^192 + 1)', () => {
    expect(FIELD_PRIME.toString(16)).toBe('800000000000011000000000000000000000000000000000000000000000001');
    expect(FELT_MAX).toBe(FIELD_PRIME - 1n);
  });

  it('takes 0 and P − 1, refuses P and negatives', () => {
    expect(isFelt(0n)).toBe(true);
    expect(isFelt(FIELD_PRIME - 1n)).toBe(true);
    expect(isFelt(FIELD_PRIME)).toBe(false);
    expect(isFelt(-1n)).toBe(false);
  });

  it('reads wire felts: 0x hex (leading zeros allowed), below P', () => {
    expect(isFeltHex('0x0')).toBe(true);
    expect(isFeltHex(`0x${'0'.repeat(63)}1`)).toBe(true);
    expect(isFeltHex(`0x${(FIELD_PRIME - 1n).toString(16)}`)).toBe(true);
    expect(isFeltHex(`0x${FIELD_PRIME.toString(16)}`)).toBe(false);
    expect(isFeltHex(`0x${'f'.repeat(64)}`)).toBe(false);
    expect(isFeltHex(`0x00${'1'.repeat(62)}`)).toBe(true);
    expect(isFeltHex(`0x${'0'.repeat(81)}`)).toBe(false);
    expect(isFeltHex('0x')).toBe(false);
    expect(isFeltHex('12')).toBe(false);
    expect(isFeltHex(12)).toBe(false);
  });

  it('converts lenient inputs and refuses what is not a felt', () => {
    expect(toFelt('0x10')).toBe(16n);
    expect(toFelt('16')).toBe(16n);
    expect(toFelt(16)).toBe(16n);
    expect(toFelt(16n)).toBe(16n);
    expect(toFelt(FIELD_PRIME - 1n)).toBe(FIELD_PRIME - 1n);
    expect(toFelt(FIELD_PRIME)).toBeUndefined();
    expect(toFelt(FIELD_PRIME.toString())).toBeUndefined();
    expect(toFelt(-1)).toBeUndefined();
    expect(toFelt(1.5)).toBeUndefined();
    expect(toFelt('0xzz')).toBeUndefined();
    expect(toFelt(null)).toBeUndefined();
  });
});
