import { describe, expect, it } from 'vitest';
import { ConfigError } from './ConfigError.js';
import { parseConsensus } from './parseConsensus.js';
import { validateConfig } from './validateConfig.js';

const network = (extra: Record<string, unknown>, upstreams: Record<string, unknown>[] = []) =>
  validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams: [
          { name: 'a', http: 'http://127.0.0.1:1' },
          { name: 'b', http: 'http://127.0.0.1:2' },
          { name: 'c', http: 'http://127.0.0.1:3' },
          ...upstreams,
        ],
        ...extra,
      },
    ],
  }).networks[0]!;
const fails = (raw: unknown, upstreams = 3) => {
  try {
    parseConsensus(raw, 'networks[0].consensus', upstreams);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('consensus rules in the config', () => {
  it('defaults: none; agree a majority, onDispute error, sitOutAfter 3, sitOutMs 60 s', () => {
    expect(network({}).consensus).toEqual([]);
    expect(
      network({ consensus: { eth_getBalance: { participants: 3 }, 'eth_getBlockBy*': { participants: 2 } } }).consensus,
    ).toEqual([
      {
        methods: 'eth_getBalance',
        participants: 3,
        agree: 2,
        ignoreFields: {},
        onDispute: 'error',
        sitOutAfter: 3,
        sitOutMs: 60_000,
      },
      {
        methods: 'eth_getBlockBy*',
        participants: 2,
        agree: 2,
        ignoreFields: {},
        onDispute: 'error',
        sitOutAfter: 3,
        sitOutMs: 60_000,
      },
    ]);
  });

  it('each field as given', () => {
    const [r] = parseConsensus(
      {
        '*': {
          participants: 3,
          agree: 3,
          ignoreFields: { 'eth_getBlockBy*': ['timestamp', 'transactions.*.v'] },
          onDispute: 'bestHead',
          sitOutAfter: 5,
          sitOutMs: 1_000,
        },
      },
      'c',
      3,
    );
    expect(r).toEqual({
      methods: '*',
      participants: 3,
      agree: 3,
      ignoreFields: { 'eth_getBlockBy*': ['timestamp', 'transactions.*.v'] },
      onDispute: 'bestHead',
      sitOutAfter: 5,
      sitOutMs: 1_000,
    });
  });

  it('refused with the field named', () => {
    expect(fails({ eth_getBalance: { participants: 4 } })).toMatch(/eth_getBalance\.participants.*3 upstream/);
    expect(fails({ eth_getBalance: { participants: 1 } })).toMatch(/participants.*from 2 to 16/);
    expect(fails({ eth_getBalance: { participants: 2, agree: 3 } })).toMatch(/agree.*from 1 to 2/);
    expect(fails({ eth_getBalance: { participants: 2, onDispute: 'vote' } })).toMatch(
      /onDispute.*error, mostCommon, bestHead/,
    );
    expect(fails({ eth_getBalance: { participants: 2, quorum: 2 } })).toMatch(/quorum: unknown field/);
    expect(fails({ 'eth getBalance': { participants: 2 } })).toMatch(/pattern/);
    expect(fails({ eth_getBalance: { participants: 2, ignoreFields: { eth_getBalance: ['a..b'] } } })).toMatch(
      /dotted field paths/,
    );
    expect(fails({ eth_getBalance: { participants: 2, sitOutMs: 10 } })).toMatch(/sitOutMs/);
    expect(fails([])).toMatch(/must be an object/);
  });
});

describe('archive and historyBlocks of an upstream', () => {
  it('as given, or absent (learned)', () => {
    const n = network({}, [
      { name: 'arch', http: 'http://127.0.0.1:4', archive: true },
      { name: 'pruned', http: 'http://127.0.0.1:5', historyBlocks: 128 },
    ]);
    expect(n.upstreams.find((u) => u.name === 'arch')).toMatchObject({ archive: true });
    expect(n.upstreams.find((u) => u.name === 'pruned')).toMatchObject({ historyBlocks: 128 });
    expect(n.upstreams.find((u) => u.name === 'a')!.archive).toBeUndefined();
    expect(n.upstreams.find((u) => u.name === 'a')!.historyBlocks).toBeUndefined();
  });

  it('both, or a bad value, is refused naming the field', () => {
    expect(() => network({}, [{ name: 'x', http: 'http://127.0.0.1:4', archive: true, historyBlocks: 128 }])).toThrow(
      /historyBlocks.*set one of "archive" or "historyBlocks"/,
    );
    expect(() => network({}, [{ name: 'x', http: 'http://127.0.0.1:4', historyBlocks: 0 }])).toThrow(/historyBlocks/);
    expect(() => network({}, [{ name: 'x', http: 'http://127.0.0.1:4', archive: 'yes' }])).toThrow(/archive/);
  });
});
