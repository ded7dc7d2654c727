import { describe, expect, it } from 'vitest';
import { decodeShortString } from './decodeShortString.js';

describe('decodeShortString', () => {
  it('reads panic messages', () => {
    expect(decodeShortString(0x4f7574206f6620676173n)).toBe('Out of gas');
    expect(decodeShortString(0x753132385f737562204f766572666c6f77n)).toBe('u128_sub Overflow');
  });
  it('keeps other felts as hex', () => {
    expect(decodeShortString(0n)).toBe('0x0');
    expect(decodeShortString(0x1n)).toBe('0x1');
    expect(decodeShortString(0x4f00n)).toBe('0x4f00');
  });
});
