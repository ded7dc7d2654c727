import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/GatewayError.js';
import { RawJson } from '../../../jsonrpc/RawJson.js';
import { countLogs, fitUpTo, rangeTooLarge, tooManyResults } from './logsCapErrors.js';

const log = (block: number, index = 0) => ({
  blockNumber: `0x${block.toString(16)}`,
  logIndex: `0x${index.toString(16)}`,
  data: `0x${'00'.repeat(100)}`,
});

describe('the cap errors', () => {
  it("a range over the cap: -32005 in Infura's shape, naming the widest range allowed from fromBlock", () => {
    const e = rangeTooLarge(16, 100_015, 10_000);
    expect(e).toBeInstanceOf(GatewayError);
    expect(e.code).toBe(-32005);
    expect(e.httpStatus).toBe(200);
    expect(e.message).toContain('[0x10, 0x271f]');
    expect(e.data).toEqual({ from: '0x10', to: '0x271f', limit: 10_000 });
  });

  it("too many logs: Infura's wording, which the classifier reads back as a result refusal", () => {
    const e = tooManyResults(0, 255, 10_000);
    expect(e.message).toBe('query returned more than 10000 results. Try with this block range [0x0, 0xff].');
    expect(e.data).toEqual({ from: '0x0', to: '0xff', limit: 10_000 });
  });
});

describe('fitUpTo', () => {
  it('ends before the block of the first log over the cap', () => {
    const ranges = [
      { from: 0, to: 9, logs: [log(1), log(3)] },
      { from: 10, to: 19, logs: [log(12), log(12, 1), log(15)] },
    ];
    expect(fitUpTo(ranges, 0, 2)).toBe(11);
    expect(fitUpTo(ranges, 0, 3)).toBe(11); // block 12's two logs do not both fit
    expect(fitUpTo(ranges, 0, 4)).toBe(14);
    expect(fitUpTo(ranges, 0, 1)).toBe(2);
  });

  it('stops at the first sub-range not answered, and is never below fromBlock', () => {
    const ranges = [
      { from: 5, to: 9, logs: [log(5)] },
      { from: 10, to: 19, logs: undefined },
      { from: 20, to: 29, logs: [log(20), log(21)] },
    ];
    expect(fitUpTo(ranges, 5, 1)).toBe(9);
    expect(fitUpTo([{ from: 5, to: 9, logs: [log(5), log(5, 1)] }], 5, 1)).toBe(5);
  });
});

describe('countLogs', () => {
  it('counts a list, and raw text by its logIndex fields, unread when too short to be over', () => {
    const logs = Array.from({ length: 30 }, (_, i) => log(i));
    expect(countLogs(logs, 10)).toBe(30);
    expect(countLogs(new RawJson(JSON.stringify(logs)), 10)).toBe(30);
    expect(countLogs(new RawJson(JSON.stringify(logs)), 10_000)).toBe(0);
    expect(countLogs(new RawJson(undefined, new TextEncoder().encode(JSON.stringify(logs))), 10)).toBe(30);
  });
});
