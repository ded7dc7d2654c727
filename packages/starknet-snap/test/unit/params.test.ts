import { asParams, optAmount, optCalldata, optInt, reqAddress, reqHash } from '../../src/lib/params';

const codeAndMessage = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const err = e as { code?: number; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('did not throw');
};

describe('params', () => {
  it('normalises addresses and names the parameter when one is bad', () => {
    expect(reqAddress({ a: '0x00AB' }, 'a')).toBe('0xab');
    expect(codeAndMessage(() => reqAddress({ a: 'zz' }, 'a'))).toEqual({
      code: -32602,
      message: expect.stringContaining('"a"'),
    });
    expect(codeAndMessage(() => reqAddress({}, 'senderAddress')).message).toContain('senderAddress');
    expect(codeAndMessage(() => reqAddress({ a: `0x8${'0'.repeat(62)}` }, 'a')).code).toBe(-32602);
  });
  it('takes every felt below the prime P and refuses P (the shared felt check)', () => {
    const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
    expect(reqHash({ h: `0x${(P - 1n).toString(16)}` }, 'h')).toBe(`0x${(P - 1n).toString(16)}`);
    expect(codeAndMessage(() => reqHash({ h: `0x${P.toString(16)}` }, 'h')).message).toContain('field element');
    expect(optCalldata({ c: (P - 1n).toString() }, 'c')).toEqual([`0x${(P - 1n).toString(16)}`]);
    expect(codeAndMessage(() => optCalldata({ c: P.toString() }, 'c')).message).toMatch(/item 0 is larger/);
  });
  it('parses comma-separated call data in decimal and hex', () => {
    expect(optCalldata({ c: '0x1, 10 ,0' }, 'c')).toEqual(['0x1', '0xa', '0x0']);
    expect(optCalldata({}, 'c')).toEqual([]);
    expect(codeAndMessage(() => optCalldata({ c: '1,x' }, 'c')).message).toMatch(/"c".*item 1/);
  });
  it('checks integers, amounts and the params object', () => {
    expect(optInt({}, 'n', 10, 1, 50)).toBe(10);
    expect(codeAndMessage(() => optInt({ n: 1.5 }, 'n', 10, 1, 50)).code).toBe(-32602);
    expect(optAmount({ m: '0x10' }, 'm')).toBe(16n);
    expect(codeAndMessage(() => optAmount({ m: '0' }, 'm')).message).toContain('"m"');
    expect(asParams(undefined)).toEqual({});
    expect(codeAndMessage(() => asParams([1])).message).toContain('params');
  });
});

describe('calls and resource bounds', () => {
  it('reqCalls normalises calls and names the broken field', async () => {
    const { reqCalls } = await import('../../src/lib/params');
    expect(
      reqCalls({ calls: [{ contractAddress: '0x00AB', entrypoint: 'transfer', calldata: ['1', '0x2'] }] }, 'calls'),
    ).toEqual([{ contractAddress: '0xab', entrypoint: 'transfer', calldata: ['0x1', '0x2'] }]);
    expect(() => reqCalls({ calls: [] }, 'calls')).toThrow(/calls/);
    expect(() => reqCalls({ calls: [{ contractAddress: '0x1', entrypoint: '1bad' }] }, 'calls')).toThrow(
      /calls\[0\]\.entrypoint/,
    );
    expect(() => reqCalls({ calls: Array(65).fill({ contractAddress: '0x1', entrypoint: 'f' }) }, 'calls')).toThrow(
      /at most 64/,
    );
  });

  it('optResourceBounds reads all three resources and refuses a missing one or a value past u128', async () => {
    const { optResourceBounds } = await import('../../src/lib/params');
    const r = { max_amount: '0x10', max_price_per_unit: '5' };
    expect(optResourceBounds({ rb: { l1_gas: r, l2_gas: r, l1_data_gas: r } }, 'rb')?.l2_gas).toEqual({
      max_amount: 16n,
      max_price_per_unit: 5n,
    });
    expect(optResourceBounds({}, 'rb')).toBeUndefined();
    expect(() => optResourceBounds({ rb: { l1_gas: r, l2_gas: r } }, 'rb')).toThrow(/rb\.l1_data_gas/);
    expect(() =>
      optResourceBounds(
        { rb: { l1_gas: r, l2_gas: { ...r, max_amount: `0x1${'0'.repeat(32)}` }, l1_data_gas: r } },
        'rb',
      ),
    ).toThrow(/below 2\^128/);
  });
});
