import { describe, expect, it } from 'vitest';
import { comparableAnswer } from './comparableAnswer.js';
import { consensusRuleFor, methodMatches } from './consensusRuleFor.js';
import type { ConsensusRule } from '../../../config/types.js';

describe('comparableAnswer', () => {
  it('keys in any order and hex in any case are one answer; another value is another', () => {
    const a = comparableAnswer({ hash: '0xABcd', number: '0x1' }, 'eth_getBlockByNumber', {});
    expect(comparableAnswer({ number: '0x1', hash: '0xabcd' }, 'eth_getBlockByNumber', {})).toBe(a);
    expect(comparableAnswer({ number: '0x1', hash: '0xabce' }, 'eth_getBlockByNumber', {})).not.toBe(a);
    // text that is not hex keeps its case
    expect(comparableAnswer('Abc', 'm', {})).not.toBe(comparableAnswer('abc', 'm', {}));
  });

  it('ignoreFields of the matching pattern are left out, * for any key or index; others are kept', () => {
    const block = (ts: string, v: string) => ({
      timestamp: ts,
      transactions: [
        { v, hash: '0x1' },
        { v, hash: '0x2' },
      ],
    });
    const ignore = { 'eth_getBlockBy*': ['timestamp', 'transactions.*.v'] };
    expect(comparableAnswer(block('0x1', '0x1b'), 'eth_getBlockByHash', ignore)).toBe(
      comparableAnswer(block('0x2', '0x1c'), 'eth_getBlockByHash', ignore),
    );
    // a method the pattern does not match compares every field
    expect(comparableAnswer(block('0x1', '0x1b'), 'eth_getBalance', ignore)).not.toBe(
      comparableAnswer(block('0x2', '0x1b'), 'eth_getBalance', ignore),
    );
    // the transactions' hashes still count
    const other = {
      timestamp: '0x1',
      transactions: [
        { v: '0x1b', hash: '0x9' },
        { v: '0x1b', hash: '0x2' },
      ],
    };
    expect(comparableAnswer(other, 'eth_getBlockByHash', ignore)).not.toBe(
      comparableAnswer(block('0x1', '0x1b'), 'eth_getBlockByHash', ignore),
    );
    // the answer itself is not changed
    const original = block('0x1', '0x1b');
    comparableAnswer(original, 'eth_getBlockByHash', ignore);
    expect(original.timestamp).toBe('0x1');
  });
});

describe('consensusRuleFor', () => {
  const rule = (methods: string): ConsensusRule => ({
    methods,
    participants: 2,
    agree: 2,
    ignoreFields: {},
    onDispute: 'error',
    sitOutAfter: 3,
    sitOutMs: 60_000,
  });
  it('an exact name wins over patterns; else the first pattern that matches', () => {
    const rules = [rule('*'), rule('eth_getBlockBy*'), rule('eth_getBlockByNumber')];
    expect(consensusRuleFor(rules, 'eth_getBlockByNumber')!.methods).toBe('eth_getBlockByNumber');
    expect(consensusRuleFor(rules, 'eth_getBlockByHash')!.methods).toBe('*');
    expect(consensusRuleFor([rule('eth_getBlockBy*')], 'eth_getBalance')).toBeUndefined();
    expect(methodMatches('eth_*Balance', 'eth_getBalance')).toBe(true);
    expect(methodMatches('eth_get', 'eth_getBalance')).toBe(false);
  });
});
