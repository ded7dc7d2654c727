import { describe, expect, it } from 'vitest';
import type { UsageEvent } from './UsageEvent.js';
import type { UsageAggregate, UsageErrorCount, UsageStore } from './UsageStore.js';
import { USAGE_RECENT_TABLE } from './usageSql.js';
import { usageStoreBoundsContract } from './usageStoreBoundsContract.js';

const M = 60_000;
const H = 3_600_000;
/** 2024-01-01T00:00:00Z: every test writes relative to it. */
const T0 = Date.UTC(2024, 0, 1);
const DAY = 24 * H;

/**
 * An aggregate row (test data) with everything not given at one request of 10 ms.
 *
 * @example
 * await store.write({ aggregates: [aggregate({ minute: T0, key: 'k1', requests: 3 })], errors: [], recent: [] });
 */
export function aggregate(p: Partial<UsageAggregate> & Pick<UsageAggregate, 'minute' | 'key'>): UsageAggregate {
  return {
    accountId: 'acct_a',
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
  };
}

/**
 * A successful request (test data) with everything not given defaulted.
 *
 * @example
 * recorder.record(usageEvent({ key: 'k1', at: Date.now(), method: 'eth_getLogs' }));
 */
export function usageEvent(p: Partial<UsageEvent> & Pick<UsageEvent, 'key' | 'at'>): UsageEvent {
  return {
    accountId: 'acct_a',
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
  };
}

const errorCount = (p: Partial<UsageErrorCount> & Pick<UsageErrorCount, 'minute' | 'key'>): UsageErrorCount => ({
  accountId: 'acct_a',
  network: 'eth-devnet',
  status: 500,
  errorCode: null,
  count: 1,
  ...p,
});

const batch = (p: {
  aggregates?: UsageAggregate[];
  errors?: UsageErrorCount[];
  recent?: UsageEvent[];
  keepRecentPerKey?: number;
}) => ({ aggregates: p.aggregates ?? [], errors: p.errors ?? [], recent: p.recent ?? [], ...p });

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The contract every UsageStore must pass (the embedded SQLite, PostgreSQL). `open` returns a
 * fresh, empty store; the suite closes it. It includes `usageStoreBoundsContract` (stored
 * texts bounded, refused rows set aside).
 *
 * @example
 * usageStoreContract('embedded (SQLite)', () => openEmbeddedUsageStore(undefined), openAfterPglite);
 */
export function usageStoreContract(
  name: string,
  open: () => Promise<UsageStore>,
  /** Runs `setupSql` on fresh storage, then opens the current store over it (migration). */
  openAfter: (setupSql: string) => Promise<UsageStore>,
) {
  const withStore = (fn: (store: UsageStore) => Promise<void>) => async () => {
    const store = await open();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  };

  describe(`UsageStore contract: ${name}`, () => {
    it(
      'writes for the same minute add up (two gateway instances, also concurrently)',
      withStore(async (store) => {
        const scope = { key: 'k1', from: T0, to: T0 + M };
        await store.write(
          batch({
            aggregates: [
              aggregate({
                minute: T0,
                key: 'k1',
                requests: 3,
                credits: 30,
                errors: 1,
                latencyMsSum: 30,
                latencyMsMax: 20,
                bytesIn: 300,
                bytesOut: 600,
              }),
            ],
          }),
        );
        await store.write(
          batch({
            aggregates: [
              aggregate({
                minute: T0 + 1234, // rounded down to the minute
                key: 'k1',
                requests: 2,
                credits: 20,
                errors: 0,
                latencyMsSum: 70,
                latencyMsMax: 50,
                bytesIn: 200,
                bytesOut: 400,
              }),
            ],
          }),
        );
        expect(await store.totals(scope)).toEqual({
          requests: 5,
          credits: 50,
          errors: 1,
          latencyMsAvg: 20,
          latencyMsMax: 50,
          bytesIn: 500,
          bytesOut: 1000,
        });
        const one = batch({ aggregates: [aggregate({ minute: T0, key: 'k1', requests: 1, latencyMsMax: 5 })] });
        await Promise.all(Array.from({ length: 8 }, () => store.write(one)));
        const points = await store.series(scope, '1m');
        expect(points).toHaveLength(1);
        expect(points[0]).toMatchObject({ at: iso(T0), requests: 13, latencyMsMax: 50 });
        // the hour roll-up added up too
        expect((await store.series({ key: 'k1', from: T0, to: T0 + H }, '1h'))[0]?.requests).toBe(13);
        // the same aggregate twice in one batch adds up as well
        await store.write(
          batch({ aggregates: [aggregate({ minute: T0, key: 'k2' }), aggregate({ minute: T0, key: 'k2' })] }),
        );
        expect((await store.totals({ key: 'k2', from: T0, to: T0 + M })).requests).toBe(2);
        // and so did the per-account sums
        const account = await store.series({ accountId: 'acct_a', from: T0, to: T0 + H }, '1m');
        expect(account.map((p) => [p.at, p.requests, p.latencyMsMax])).toEqual([[iso(T0), 15, 50]]);
        expect((await store.totals({ accountId: 'acct_a', from: T0, to: T0 + H })).requests).toBe(15);
      }),
    );

    it(
      'draws series in every bucket width, also per network, omitting empty buckets',
      withStore(async (store) => {
        const minutes = [0, 1, 7, 16, 61];
        await store.write(
          batch({
            aggregates: [
              ...minutes.map((m) => aggregate({ minute: T0 + m * M, key: 'k1', requests: m + 1 })),
              aggregate({ minute: T0 + M, key: 'k1', network: 'stk-devnet', method: 'starknet_call', requests: 100 }),
              aggregate({ minute: T0 + DAY + 5 * M, key: 'k1', requests: 1000 }),
            ],
          }),
        );
        const scope = { key: 'k1', from: T0, to: T0 + 2 * DAY };
        const series = async (bucket: '1m' | '5m' | '15m' | '1h' | '1d') =>
          (await store.series(scope, bucket)).map((p) => [p.at, p.requests]);
        expect(await series('1m')).toEqual([
          [iso(T0), 1],
          [iso(T0 + M), 102],
          [iso(T0 + 7 * M), 8],
          [iso(T0 + 16 * M), 17],
          [iso(T0 + 61 * M), 62],
          [iso(T0 + DAY + 5 * M), 1000],
        ]);
        expect(await series('5m')).toEqual([
          [iso(T0), 103],
          [iso(T0 + 5 * M), 8],
          [iso(T0 + 15 * M), 17],
          [iso(T0 + 60 * M), 62],
          [iso(T0 + DAY + 5 * M), 1000],
        ]);
        expect(await series('15m')).toEqual([
          [iso(T0), 111],
          [iso(T0 + 15 * M), 17],
          [iso(T0 + 60 * M), 62],
          [iso(T0 + DAY), 1000],
        ]);
        expect(await series('1h')).toEqual([
          [iso(T0), 128],
          [iso(T0 + H), 62],
          [iso(T0 + DAY), 1000],
        ]);
        expect(await series('1d')).toEqual([
          [iso(T0), 190],
          [iso(T0 + DAY), 1000],
        ]);
        const byNetwork = await store.series({ key: 'k1', from: T0, to: T0 + DAY }, '1h', { byNetwork: true });
        expect(byNetwork.map((p) => [p.at, p.network, p.requests])).toEqual([
          [iso(T0), 'eth-devnet', 28],
          [iso(T0), 'stk-devnet', 100],
          [iso(T0 + H), 'eth-devnet', 62],
        ]);
        const plain = await store.series({ key: 'k1', from: T0, to: T0 + DAY }, '1h');
        expect(plain[0]).not.toHaveProperty('network');
        expect(plain[0]).toEqual({
          at: iso(T0),
          requests: 128,
          credits: 50,
          errors: 0,
          latencyMsAvg: 50 / 128,
          latencyMsMax: 10,
          bytesIn: 500,
          bytesOut: 1000,
        });
      }),
    );

    it(
      'ranges that cut through hours count exactly the minutes inside [from, to)',
      withStore(async (store) => {
        const at = [20, 45, 90, 185, 195].map((m) => T0 + m * M);
        await store.write(
          batch({ aggregates: at.map((minute, i) => aggregate({ minute, key: 'k1', requests: 10 ** i })) }),
        );
        const scope = { key: 'k1', from: T0 + 30 * M, to: T0 + 190 * M };
        // 45 (edge minutes), 90 (whole hour 1), 185 (edge minutes of hour 3); not 20, not 195
        expect((await store.totals(scope)).requests).toBe(10 + 100 + 1000);
        expect((await store.series(scope, '1h')).map((p) => [p.at, p.requests])).toEqual([
          [iso(T0), 10],
          [iso(T0 + H), 100],
          [iso(T0 + 3 * H), 1000],
        ]);
        expect((await store.series(scope, '1d')).map((p) => p.requests)).toEqual([1110]);
        expect((await store.topMethods(scope, 5)).map((m) => m.requests)).toEqual([1110]);
        const account = { accountId: 'acct_a', from: scope.from, to: scope.to };
        expect((await store.totals(account)).requests).toBe(1110);
        expect((await store.series(account, '1h')).map((p) => p.requests)).toEqual([10, 100, 1000]);
        expect((await store.series(account, '15m')).map((p) => p.requests)).toEqual([10, 100, 1000]);
        expect((await store.totals({ from: scope.from, to: scope.to })).requests).toBe(1110);
        expect((await store.totals({ key: 'k1', from: T0 + 20 * M, to: T0 + 20 * M })).requests).toBe(0);
        expect((await store.totals({ key: 'k1', from: T0, to: T0 + DAY })).requests).toBe(11111);
      }),
    );

    it(
      'totals are zero for an empty range and sum every key when unscoped',
      withStore(async (store) => {
        expect(await store.totals({ from: T0, to: T0 + DAY })).toEqual({
          requests: 0,
          credits: 0,
          errors: 0,
          latencyMsAvg: 0,
          latencyMsMax: 0,
          bytesIn: 0,
          bytesOut: 0,
        });
        expect(await store.series({ from: T0, to: T0 + DAY }, '1h')).toEqual([]);
        await store.write(
          batch({
            aggregates: [
              aggregate({ minute: T0, key: 'k1', requests: 2, errors: 1, latencyMsSum: 8, latencyMsMax: 6 }),
              aggregate({ minute: T0 + 3 * H, key: 'k2', accountId: 'acct_b', requests: 2, latencyMsSum: 12 }),
            ],
          }),
        );
        expect(await store.totals({ from: T0, to: T0 + DAY })).toEqual({
          requests: 4,
          credits: 20,
          errors: 1,
          latencyMsAvg: 5,
          latencyMsMax: 10,
          bytesIn: 200,
          bytesOut: 400,
        });
      }),
    );

    it(
      'ranks methods by requests, with their totals',
      withStore(async (store) => {
        await store.write(
          batch({
            aggregates: [
              aggregate({ minute: T0, key: 'k1', method: 'eth_call', requests: 10, credits: 260 }),
              aggregate({ minute: T0 + M, key: 'k1', method: 'eth_call', requests: 5, credits: 130 }),
              aggregate({ minute: T0, key: 'k1', method: 'eth_blockNumber', requests: 30 }),
              aggregate({ minute: T0 + 2 * H, key: 'k1', method: 'eth_getLogs', requests: 20, errors: 2 }),
              aggregate({ minute: T0, key: 'k1', network: 'stk-devnet', method: 'starknet_call', requests: 1 }),
            ],
          }),
        );
        const scope = { key: 'k1', from: T0, to: T0 + DAY };
        const top = await store.topMethods(scope, 10);
        expect(top.map((m) => [m.method, m.network, m.requests])).toEqual([
          ['eth_blockNumber', 'eth-devnet', 30],
          ['eth_getLogs', 'eth-devnet', 20],
          ['eth_call', 'eth-devnet', 15],
          ['starknet_call', 'stk-devnet', 1],
        ]);
        expect(top[1]).toMatchObject({ errors: 2, credits: 10 });
        expect(top[2]).toMatchObject({ credits: 390, bytesIn: 200 });
        expect((await store.topMethods(scope, 2)).map((m) => m.method)).toEqual(['eth_blockNumber', 'eth_getLogs']);
      }),
    );

    it(
      'counts errors by HTTP status and error code',
      withStore(async (store) => {
        await store.write(
          batch({
            errors: [
              errorCount({ minute: T0, key: 'k1', status: 429, errorCode: null, count: 2 }),
              errorCount({ minute: T0, key: 'k1', status: 200, errorCode: -32000, count: 3 }),
              errorCount({ minute: T0 + 2 * H, key: 'k1', status: 200, errorCode: -32000, count: 2 }),
              errorCount({ minute: T0, key: 'k1', status: 500, errorCode: -32603, count: 1 }),
            ],
          }),
        );
        // a second instance's errors for the same minute, with no error code, add up
        await store.write(
          batch({ errors: [errorCount({ minute: T0, key: 'k1', status: 429, errorCode: null, count: 3 })] }),
        );
        expect(await store.errorsByStatus({ key: 'k1', from: T0, to: T0 + DAY })).toEqual([
          { status: 200, errorCode: -32000, count: 5 },
          { status: 429, errorCode: null, count: 5 },
          { status: 500, errorCode: -32603, count: 1 },
        ]);
        expect(await store.errorsByStatus({ key: 'k1', from: T0 + H, to: T0 + DAY })).toEqual([
          { status: 200, errorCode: -32000, count: 2 },
        ]);
      }),
    );

    it(
      'lists recent requests newest first, filtered, at most N per key',
      withStore(async (store) => {
        const events = Array.from({ length: 6 }, (_, i) =>
          usageEvent({
            key: 'k1',
            at: T0 + i * 1000 + 7,
            method: i % 2 === 0 ? 'eth_call' : 'eth_getBalance',
            status: i === 3 ? 429 : 200,
            refusal: i === 3 ? 'rate' : undefined,
            errorCode: i === 4 ? -32000 : undefined,
            upstream: i === 3 ? undefined : 'anvil-1',
          }),
        );
        await store.write(batch({ recent: [events[2]!, events[0]!, events[1]!] }));
        await store.write(batch({ recent: events.slice(3), keepRecentPerKey: 200 }));
        await store.write(batch({ recent: [usageEvent({ key: 'k2', at: T0 })] }));
        const all = await store.recentRequests('k1', { limit: 10 });
        expect(all.map((r) => r.requestId)).toEqual([5, 4, 3, 2, 1, 0].map((i) => events[i]!.requestId));
        expect(all[2]).toEqual({
          requestId: events[3]!.requestId,
          at: iso(T0 + 3007),
          key: 'k1',
          network: 'eth-devnet',
          method: 'eth_getBalance',
          transport: 'http',
          status: 429,
          errorCode: null,
          refusal: 'rate',
          latencyMs: 5,
          credits: 10,
          bytesIn: 100,
          bytesOut: 200,
          upstream: null,
          failover: null,
        });
        expect(all[1]).toMatchObject({ errorCode: -32000, refusal: null, upstream: 'anvil-1', failover: null });
        expect((await store.recentRequests('k1', { limit: 2 })).map((r) => r.requestId)).toEqual([
          events[5]!.requestId,
          events[4]!.requestId,
        ]);
        expect((await store.recentRequests('k1', { limit: 10, method: 'eth_call' })).map((r) => r.at)).toEqual([
          iso(T0 + 4007),
          iso(T0 + 2007),
          iso(T0 + 7),
        ]);
        expect((await store.recentRequests('k1', { limit: 10, status: 429 })).map((r) => r.requestId)).toEqual([
          events[3]!.requestId,
        ]);
        expect(await store.recentRequests('k1', { limit: 10, method: 'eth_getBalance', status: 500 })).toEqual([]);
        // one request by its id (the request explorer's detail); another key's id is not found
        expect(
          (await store.recentRequests('k1', { limit: 10, requestId: events[3]!.requestId })).map((r) => r.at),
        ).toEqual([iso(T0 + 3007)]);
        expect(await store.recentRequests('k2', { limit: 10, requestId: events[3]!.requestId })).toEqual([]);
        // the log keeps the newest N of each key written
        await store.write(batch({ recent: [usageEvent({ key: 'k1', at: T0 + 10_000 })], keepRecentPerKey: 4 }));
        expect((await store.recentRequests('k1', { limit: 10 })).map((r) => r.at)).toEqual([
          iso(T0 + 10_000),
          iso(T0 + 5007),
          iso(T0 + 4007),
          iso(T0 + 3007),
        ]);
        expect(await store.recentRequests('k2', { limit: 10 })).toHaveLength(1);
      }),
    );

    it(
      'keeps keys and accounts apart',
      withStore(async (store) => {
        const rows = [
          { key: 'ka1', accountId: 'acct_a', method: 'eth_call', status: 500 },
          { key: 'ka2', accountId: 'acct_a', method: 'eth_chainId', status: 502 },
          { key: 'kb1', accountId: 'acct_b', method: 'eth_getLogs', status: 503 },
        ];
        await store.write(
          batch({
            aggregates: rows.map((r, i) =>
              aggregate({
                minute: T0 + i * M,
                key: r.key,
                accountId: r.accountId,
                method: r.method,
                requests: 10 ** i,
              }),
            ),
            errors: rows.map((r) => errorCount({ minute: T0, key: r.key, accountId: r.accountId, status: r.status })),
            recent: rows.map((r, i) =>
              usageEvent({ key: r.key, accountId: r.accountId, method: r.method, at: T0 + i }),
            ),
          }),
        );
        const range = { from: T0, to: T0 + DAY };
        const a = { ...range, accountId: 'acct_a' };
        const b = { ...range, accountId: 'acct_b' };
        expect((await store.totals(a)).requests).toBe(11);
        expect((await store.totals(b)).requests).toBe(100);
        expect((await store.totals({ ...range, key: 'ka2' })).requests).toBe(10);
        expect((await store.totals({ ...range, key: 'kb1', accountId: 'acct_a' })).requests).toBe(0);
        expect((await store.totals(range)).requests).toBe(111);
        expect((await store.series(b, '1m')).map((p) => p.requests)).toEqual([100]);
        expect((await store.series(a, '1h')).map((p) => p.requests)).toEqual([11]);
        expect((await store.series({ ...range, key: 'ka1' }, '1m')).map((p) => p.requests)).toEqual([1]);
        expect((await store.topMethods(b, 10)).map((m) => m.method)).toEqual(['eth_getLogs']);
        expect((await store.topMethods(a, 10)).map((m) => m.method)).toEqual(['eth_chainId', 'eth_call']);
        expect((await store.errorsByStatus(b)).map((e) => e.status)).toEqual([503]);
        expect((await store.errorsByStatus(a)).map((e) => e.status)).toEqual([500, 502]);
        expect((await store.errorsByStatus({ ...range, key: 'ka2' })).map((e) => e.status)).toEqual([502]);
        expect((await store.recentRequests('kb1', { limit: 10 })).map((r) => r.key)).toEqual(['kb1']);
        expect((await store.recentRequests('ka1', { limit: 10 })).map((r) => r.method)).toEqual(['eth_call']);
      }),
    );

    it(
      'keeps which requests a failover partner answered',
      withStore(async (store) => {
        await store.write(
          batch({
            recent: [
              usageEvent({ key: 'k1', at: T0, upstream: 'partner-a', failover: 'partner' }),
              usageEvent({ key: 'k1', at: T0 + 1, upstream: 'anvil-1' }),
            ],
          }),
        );
        const [plain, byPartner] = await store.recentRequests('k1', { limit: 10 });
        expect(byPartner).toMatchObject({ upstream: 'partner-a', failover: 'partner' });
        expect(plain).toMatchObject({ upstream: 'anvil-1', failover: null });
      }),
    );

    it('migrates a request log from before failover was recorded: old rows read failover null, new rows keep it', async () => {
      const store = await openAfter(`${USAGE_RECENT_TABLE}
        INSERT INTO usage_recent (key, account_id, request_id, at, network, method, transport, status, latency_ms,
                                  credits, bytes_in, bytes_out, upstream)
        VALUES ('k1', 'acct_a', 'old', '${iso(T0)}', 'eth-devnet', 'eth_call', 'http', 200, 5, 10, 100, 200, 'anvil-1');`);
      try {
        await store.write(
          batch({ recent: [usageEvent({ key: 'k1', at: T0 + 1, upstream: 'partner-a', failover: 'partner' })] }),
        );
        const rows = await store.recentRequests('k1', { limit: 10 });
        expect(rows.map((r) => [r.requestId, r.failover])).toEqual([
          [`req_${T0 + 1}`, 'partner'],
          ['old', null],
        ]);
      } finally {
        await store.close();
      }
    });

    // what clients can send: bounded at the store, and a refused row set aside
    usageStoreBoundsContract(open);
  });
}
