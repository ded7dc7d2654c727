import { describe, expect, it } from 'vitest';
import { checkFelt } from './starknetParams.js';

const P = 2n ** 251n + 17n * 2n ** 192n + 1n;

describe('checkFelt (the gateway reads felts with the shared check)', () => {
  it('takes P − 1 (it used to refuse it) and felts padded with leading zeros', () => {
    const max = `0x${(P - 1n).toString(16)}`;
    expect(checkFelt(max, 'key')).toBe(max);
    expect(checkFelt(`0x${'0'.repeat(63)}1`, 'key')).toBe(`0x${'0'.repeat(63)}1`);
    expect(checkFelt(`0x00${(P - 1n).toString(16)}`, 'key')).toBe(`0x00${(P - 1n).toString(16)}`);
  });

  it('refuses P, 81 digits and non-hex with -32602 naming the param', () => {
    for (const v of [`0x${P.toString(16)}`, `0x${'0'.repeat(81)}`, '12', 12]) {
      expect(() => checkFelt(v, 'request.calldata[3]')).toThrow(
        /invalid params: request\.calldata\[3\]: expected a felt/,
      );
    }
  });
});
