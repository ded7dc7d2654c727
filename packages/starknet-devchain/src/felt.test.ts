import { describe, expect, it } from 'vitest';
import { DevchainError } from './errors.js';
import { FIELD_PRIME, parseFelt } from './felt.js';

/** The error parseFelt throws: its code and the data a client reads. */
function refusal(v: unknown, field: string) {
  try {
    parseFelt(v, field);
  } catch (err) {
    return err instanceof DevchainError ? { code: err.code, data: err.data } : err;
  }
  throw new Error('not refused');
}

describe('parseFelt (the dev chain reads felts with the shared check)', () => {
  it('takes P − 1 in hex, decimal and bigint form', () => {
    const max = FIELD_PRIME - 1n;
    expect(parseFelt(`0x${max.toString(16)}`)).toBe(max);
    expect(parseFelt(max.toString())).toBe(max);
    expect(parseFelt(max)).toBe(max);
  });

  it('refuses P and above with INVALID_PARAMS naming the field (it used to take values up to 2^256)', () => {
    for (const v of [`0x${FIELD_PRIME.toString(16)}`, `0x${'f'.repeat(64)}`, FIELD_PRIME]) {
      expect(refusal(v, 'calldata[0]')).toEqual({
        code: -32602,
        data: expect.stringMatching(/^calldata\[0\]: expected a felt/),
      });
    }
    expect(refusal(-1, 'x')).toEqual({ code: -32602, data: expect.stringMatching(/^x: expected a felt/) });
  });
});
