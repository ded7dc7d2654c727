import { asParams, optAmount, optCalldata, optInt, reqAddress } from '../../src/lib/params';

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
