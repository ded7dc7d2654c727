import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { USAGE_TEXT_LIMITS } from './cleanUsageBatch.js';
import type { UsageEvent } from './UsageEvent.js';
import type { UsageAggregate, UsageErrorCount, UsageStore } from './UsageStore.js';

const M = 60_000;
const DAY = 86_400_000;
/** 2024-03-01: apart from the other contract tests' data. */
const T0 = Date.UTC(2024, 2, 1);
/** A time the database cannot store (out of timestamptz's range): a row it refuses. */
const UNSTORABLE = 1e20;
const PRINTABLE = /^[\x20-\x7e]*$/;

/** Texts that broke a naive insert: a NUL, a 4 KB name that does not compress, control and non-ASCII characters. */
const hostile = () => [
  'x\u0000',
  randomBytes(3000).toString('base64'),
  '\ud800lone',
  'a\nb\u001b[31m',
  `é${'ü'.repeat(300)}`,
];

const aggregate = (p: Partial<UsageAggregate> & Pick<UsageAggregate, 'minute' | 'key'>): UsageAggregate => ({
  accountId: 'acct_bounds',
  network: 'eth-devnet',
  method: 'eth_call',
  requests: 1,
  credits: 10,
  errors: 0,
  latencyMsSum: 10,
  latencyMsMax: 10,
  bytesIn: 100,
  bytesOut: 200,
  ...p,
});
const errorCount = (p: Partial<UsageErrorCount> & Pick<UsageErrorCount, 'minute' | 'key'>): UsageErrorCount => ({
  accountId: 'acct_bounds',
  network: 'eth-devnet',
  status: 500,
  errorCode: null,
  count: 1,
  ...p,
});
const event = (p: Partial<UsageEvent> & Pick<UsageEvent, 'key' | 'at'>): UsageEvent => ({
  accountId: 'acct_bounds',
  network: 'eth-devnet',
  method: 'eth_call',
  transport: 'http',
  status: 200,
  errorCode: undefined,
  refusal: undefined,
  credits: 10,
  latencyMs: 5,
  bytesIn: 100,
  bytesOut: 200,
  upstream: 'anvil-1',
  requestId: `req_${p.at}`,
  ...p,
});

/**
 * The part of the UsageStore contract about what clients can send (issue 20, item 1), run by
 * `usageStoreContract` for every implementation: every stored text bounded in length and
 * charset at the store itself, numbers kept within their columns, and a row the database
 * refuses set aside (dead-letter table) while the rest of its batch is written once.
 *
 * @example
 * usageStoreBoundsContract(() => openEmbeddedUsageStore(undefined));
 */
export function usageStoreBoundsContract(open: () => Promise<UsageStore>) {
  const withStore = (fn: (store: UsageStore) => Promise<void>) => async () => {
    const store = await open();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  };

  it(
    'bounds every stored text in length and charset, whatever it holds (NUL, 4 KB names, control characters)',
    withStore(async (store) => {
      const texts = hostile();
      const result = await store.write({
        aggregates: texts.map((t, i) => aggregate({ minute: T0 + i * M, key: 'kb', method: t, network: t })),
        errors: texts.map((t, i) => errorCount({ minute: T0 + i * M, key: 'kb', network: t })),
        recent: texts.map((t, i) =>
          event({
            key: 'kb',
            at: T0 + i,
            method: t,
            network: t,
            refusal: t,
            upstream: t,
            requestId: `${t}${i}`,
            transport: t as UsageEvent['transport'],
          }),
        ),
      });
      expect(result.setAside).toBe(0);
      const scope = { key: 'kb', from: T0, to: T0 + DAY };
      expect((await store.totals(scope)).requests).toBe(texts.length);
      const top = await store.topMethods(scope, 100);
      expect(top.reduce((n, m) => n + m.requests, 0)).toBe(texts.length);
      for (const m of top) {
        expect(m.method.length).toBeLessThanOrEqual(USAGE_TEXT_LIMITS.method);
        expect(m.network.length).toBeLessThanOrEqual(USAGE_TEXT_LIMITS.network);
        expect(m.method).toMatch(PRINTABLE);
        expect(m.network).toMatch(PRINTABLE);
      }
      expect((await store.errorsByStatus(scope)).reduce((n, e) => n + e.count, 0)).toBe(texts.length);
      const recent = await store.recentRequests('kb', { limit: 100 });
      expect(recent).toHaveLength(texts.length);
      for (const r of recent) {
        for (const [field, max] of [
          ['method', USAGE_TEXT_LIMITS.method],
          ['network', USAGE_TEXT_LIMITS.network],
          ['refusal', USAGE_TEXT_LIMITS.refusal],
          ['upstream', USAGE_TEXT_LIMITS.upstream],
          ['requestId', USAGE_TEXT_LIMITS.requestId],
          ['transport', USAGE_TEXT_LIMITS.transport],
        ] as const) {
          const value = String(r[field]);
          expect(value.length).toBeLessThanOrEqual(max);
          expect(value).toMatch(PRINTABLE);
        }
      }
      // the NUL became a visible character, not a lost row
      expect(recent.some((r) => r.method === 'x?')).toBe(true);
    }),
  );

  it(
    'keeps numbers within their columns (huge, fractional, not finite)',
    withStore(async (store) => {
      const result = await store.write({
        aggregates: [
          aggregate({ minute: T0, key: 'kn', credits: 1e30, bytesIn: 1.5, latencyMsSum: Number.NaN, requests: 2 }),
        ],
        errors: [errorCount({ minute: T0, key: 'kn', status: 1e12, errorCode: -1e15 })],
        recent: [event({ key: 'kn', at: T0, credits: Number.POSITIVE_INFINITY, latencyMs: -3, status: 200.7 })],
      });
      expect(result.setAside).toBe(0);
      const totals = await store.totals({ key: 'kn', from: T0, to: T0 + M });
      expect(totals.requests).toBe(2);
      expect(totals.credits).toBe(Number.MAX_SAFE_INTEGER);
      expect(totals.bytesIn).toBe(2);
      expect((await store.errorsByStatus({ key: 'kn', from: T0, to: T0 + M }))[0]).toEqual({
        status: 999,
        errorCode: -2_147_483_648,
        count: 1,
      });
      expect((await store.recentRequests('kn', { limit: 1 }))[0]).toMatchObject({
        credits: 0,
        latencyMs: 0,
        status: 201,
      });
    }),
  );

  it(
    'sets aside a row the database refuses, writes the rest of its batch once, and goes on',
    withStore(async (store) => {
      const result = await store.write({
        aggregates: [
          aggregate({ minute: T0, key: 'kd1', requests: 3 }),
          aggregate({ minute: UNSTORABLE, key: 'kd1', requests: 100 }),
          aggregate({ minute: T0, key: 'kd2', accountId: 'acct_other', requests: 4 }),
        ],
        errors: [
          errorCount({ minute: T0, key: 'kd1', count: 2 }),
          errorCount({ minute: UNSTORABLE, key: 'kd1', count: 100 }),
        ],
        recent: [event({ key: 'kd2', at: T0 + 5 }), event({ key: 'kd1', at: UNSTORABLE, requestId: 'unstorable' })],
      });
      expect(result.setAside).toBe(3);
      expect(result.setAsideReason).toMatch(/range/);
      const range = { from: T0, to: T0 + DAY };
      expect((await store.totals({ ...range, key: 'kd1' })).requests).toBe(3);
      expect((await store.totals({ ...range, key: 'kd2' })).requests).toBe(4);
      expect((await store.totals({ ...range, accountId: 'acct_other' })).requests).toBe(4);
      expect(await store.errorsByStatus({ ...range, key: 'kd1' })).toEqual([
        { status: 500, errorCode: null, count: 2 },
      ]);
      expect((await store.recentRequests('kd2', { limit: 10 })).map((r) => r.requestId)).toEqual([`req_${T0 + 5}`]);
      expect(await store.recentRequests('kd1', { limit: 10 })).toEqual([]);

      const dead = await store.deadLetters(10);
      expect(dead.map((d) => d.kind).sort()).toEqual(['aggregate', 'error', 'recent']);
      for (const d of dead) {
        expect(d.data).toContain('kd1');
        expect(d.error).toMatch(/range/);
        expect(d.error).toMatch(PRINTABLE);
        expect(Date.parse(d.at)).toBeGreaterThan(Date.now() - DAY);
      }
      expect(dead.find((d) => d.kind === 'recent')!.data).toContain('unstorable');
      expect(await store.deadLetters(1)).toHaveLength(1);

      // the next write is not held back by anything
      expect(
        (await store.write({ aggregates: [aggregate({ minute: T0, key: 'kd1' })], errors: [], recent: [] })).setAside,
      ).toBe(0);
      expect((await store.totals({ ...range, key: 'kd1' })).requests).toBe(4);
      expect(await store.deadLetters(10)).toHaveLength(3);
    }),
  );
}
