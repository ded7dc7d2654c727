import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageMethodNamer } from './createUsageMethodNamer.js';
import { createUsageRecorder, USAGE_FAILING_AFTER } from './createUsageRecorder.js';
import { openEmbeddedUsageStore } from './openEmbeddedUsageStore.js';
import type { UsageBatch, UsageStore } from './UsageStore.js';
import { UsageWriteError } from './UsageWriteError.js';
import { usageEvent } from './usageStoreContract.js';

// One in-memory embedded store (SQLite in its worker thread) for the file; every test uses keys of its own.
let store: UsageStore;
beforeAll(async () => {
  store = await openEmbeddedUsageStore(undefined);
});
afterAll(() => store.close());

const T0 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;
/** The 100k test writes 10 days later, apart from the others' data. */
const BULK = T0 + 10 * DAY;
const all = (key: string) => ({ key, from: T0 - DAY, to: T0 + 2 * DAY });

describe('createUsageRecorder', () => {
  it('writes on its own within about a second, without flush()', async () => {
    const recorder = createUsageRecorder({ store });
    try {
      for (let i = 0; i < 5; i++) recorder.record(usageEvent({ key: 'timer', at: T0 + i * 1000, latencyMs: i }));
      const started = Date.now();
      let requests = 0;
      while (requests < 5 && Date.now() - started < 3000) {
        await new Promise((r) => setTimeout(r, 50));
        requests = (await store.totals(all('timer'))).requests;
      }
      expect(requests).toBe(5);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await store.recentRequests('timer', { limit: 10 })).toHaveLength(5);
    } finally {
      await recorder.close();
    }
  });

  it('close() writes everything recorded: sums, errors, recent requests', async () => {
    const recorder = createUsageRecorder({ store, flushIntervalMs: 60_000 });
    const events = [
      usageEvent({ key: 'close', at: T0 + 1, credits: 26, latencyMs: 30, bytesIn: 10, bytesOut: 1000 }),
      usageEvent({ key: 'close', at: T0 + 59_999, latencyMs: 10, status: 429, refusal: 'rate', credits: 0 }),
      usageEvent({ key: 'close', at: T0 + 60_000, errorCode: -32000, latencyMs: 2, method: 'eth_getLogs' }),
      usageEvent({ key: 'close', at: T0 + 61_000, network: 'stk-devnet', method: 'starknet_call', status: 502 }),
    ];
    for (const e of events) recorder.record(e);
    expect((await store.totals(all('close'))).requests).toBe(0);
    await recorder.close();
    expect(await store.totals(all('close'))).toEqual({
      requests: 4,
      credits: 46,
      errors: 3,
      latencyMsAvg: 47 / 4,
      latencyMsMax: 30,
      bytesIn: 310,
      bytesOut: 1600,
    });
    expect((await store.series(all('close'), '1m')).map((p) => [p.at, p.requests, p.errors])).toEqual([
      [new Date(T0).toISOString(), 2, 1],
      [new Date(T0 + 60_000).toISOString(), 2, 2],
    ]);
    expect(await store.errorsByStatus(all('close'))).toEqual([
      { status: 200, errorCode: -32000, count: 1 },
      { status: 429, errorCode: null, count: 1 },
      { status: 502, errorCode: null, count: 1 },
    ]);
    expect((await store.recentRequests('close', { limit: 10 })).map((r) => r.requestId)).toEqual(
      events.map((e) => e.requestId).reverse(),
    );
    // recorded after close: dropped, and close() again is harmless
    recorder.record(usageEvent({ key: 'close', at: T0 }));
    await recorder.close();
    expect((await store.totals(all('close'))).requests).toBe(4);
  });

  it('a failed write loses nothing: its data is merged into the next flush', async () => {
    let failures = 1;
    const flaky: Pick<UsageStore, 'write'> = {
      write(batch) {
        if (failures-- > 0) return Promise.reject(new Error('connection reset'));
        return store.write(batch);
      },
    };
    const recorder = createUsageRecorder({ store: flaky, flushIntervalMs: 60_000, maxRecentPerKey: 3 });
    recorder.record(usageEvent({ key: 'flaky', at: T0, latencyMs: 40, status: 500 }));
    recorder.record(usageEvent({ key: 'flaky', at: T0 + 1, latencyMs: 1 }));
    await expect(recorder.flush()).rejects.toThrow('connection reset');
    recorder.record(usageEvent({ key: 'flaky', at: T0 + 2, latencyMs: 1, status: 500 }));
    recorder.record(usageEvent({ key: 'flaky', at: T0 + 3, latencyMs: 1 }));
    await recorder.flush();
    expect(await store.totals(all('flaky'))).toMatchObject({ requests: 4, errors: 2, latencyMsMax: 40 });
    expect(await store.errorsByStatus(all('flaky'))).toEqual([{ status: 500, errorCode: null, count: 2 }]);
    // the newest 3 of the key, the failed batch's older ones dropped first
    expect((await store.recentRequests('flaky', { limit: 10 })).map((r) => r.at)).toEqual(
      [T0 + 3, T0 + 2, T0 + 1].map((t) => new Date(t).toISOString()),
    );
    await recorder.close();
  });

  it('a timer flush that fails reports to onError and retries on the next tick', async () => {
    let failures = 1;
    const errors: unknown[] = [];
    const recorder = createUsageRecorder({
      store: {
        write: (batch) => (failures-- > 0 ? Promise.reject(new Error('db down')) : store.write(batch)),
      },
      flushIntervalMs: 100,
      onError: (err) => errors.push(err),
    });
    try {
      recorder.record(usageEvent({ key: 'retry', at: T0 }));
      const started = Date.now();
      while ((await store.totals(all('retry'))).requests === 0 && Date.now() - started < 5000) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await store.totals(all('retry'))).requests).toBe(1);
      expect(errors.map((e) => (e as Error).message)).toEqual(['db down']);
    } finally {
      await recorder.close();
    }
  });

  it('never runs two flushes at once', async () => {
    let running = 0;
    let most = 0;
    const batches: UsageBatch[] = [];
    const recorder = createUsageRecorder({
      store: {
        async write(batch) {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 20));
          batches.push(batch);
          running--;
          return { setAside: 0 };
        },
      },
      flushIntervalMs: 5,
    });
    for (let i = 0; i < 5; i++) {
      recorder.record(usageEvent({ key: 'overlap', at: T0 + i }));
      void recorder.flush();
      await new Promise((r) => setTimeout(r, 3));
    }
    await recorder.close();
    expect(most).toBe(1);
    expect(batches.reduce((n, b) => n + b.aggregates.reduce((m, a) => m + a.requests, 0), 0)).toBe(5);
  });

  it('records 100k requests in memory and writes them all', async () => {
    const recorder = createUsageRecorder({ store, flushIntervalMs: 60_000 });
    const keys = Array.from({ length: 100 }, (_, i) => `bulk${i}`);
    const methods = ['eth_call', 'eth_getBalance', 'eth_blockNumber', 'eth_getLogs', 'eth_chainId'];
    const networks = ['eth-devnet', 'stk-devnet', 'eth-sepolia'];
    const events = Array.from({ length: 1000 }, (_, i) =>
      usageEvent({
        key: keys[i % 100]!,
        accountId: `acct_bulk${i % 7}`,
        network: networks[i % 3]!,
        method: methods[i % 5]!,
        at: BULK + (i % 10) * 60_000,
        status: i % 50 === 0 ? 500 : 200,
      }),
    );
    for (let i = 0; i < 100_000; i++) recorder.record(events[i % 1000]!);
    await recorder.close();
    const totals = await store.totals({ from: BULK, to: BULK + 3_600_000 });
    expect(totals.requests).toBe(100_000);
    expect(totals.errors).toBe(2_000);
    expect((await store.totals({ key: 'bulk42', from: BULK, to: BULK + DAY })).requests).toBe(1000);
    expect((await store.totals({ accountId: 'acct_bulk3', from: BULK, to: BULK + DAY })).requests).toBe(14_300);
    // one flush writes the newest 50 requests of a key (maxRecentPerFlush)
    expect(await store.recentRequests('bulk42', { limit: 1000 })).toHaveLength(50);
  });

  it('keeps the newest maxRecentPerKey requests of a key across flushes, at most maxRecentPerFlush per flush', async () => {
    const recorder = createUsageRecorder({ store, flushIntervalMs: 60_000, maxRecentPerKey: 8, maxRecentPerFlush: 3 });
    const at = BULK + DAY;
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) {
        recorder.record(usageEvent({ key: 'ringkey', at: at + round * 1000 + i, requestId: `r${round}-${i}` }));
      }
      await recorder.flush();
    }
    await recorder.close();
    const recent = await store.recentRequests('ringkey', { limit: 100 });
    // 4 flushes x the newest 3 of 5, trimmed to the newest 8, newest first
    expect(recent.map((r) => r.requestId)).toEqual(['r3-4', 'r3-3', 'r3-2', 'r2-4', 'r2-3', 'r2-2', 'r1-4', 'r1-3']);
    // the sums count every request
    expect((await store.totals({ key: 'ringkey', from: at, to: at + 60_000 })).requests).toBe(20);
  });

  it('records a method under a table name or a bucket, never the client text (sums and request log alike)', async () => {
    const recorder = createUsageRecorder({
      store,
      flushIntervalMs: 60_000,
      methodName: createUsageMethodNamer([{ name: 'eth-devnet', family: 'eth' }]),
    });
    const sent = [
      'eth_call',
      'x\u0000',
      'y'.repeat(3000),
      'evm_mine',
      'anvil_whatever',
      '(invalid)',
      'eth_subscription',
    ];
    for (const [i, method] of sent.entries()) recorder.record(usageEvent({ key: 'named', at: T0 + i, method }));
    // another network (not configured): named against every family's table
    recorder.record(usageEvent({ key: 'named', at: T0 + 10, network: 'stk-x', method: 'starknet_call' }));
    recorder.record(usageEvent({ key: 'named', at: T0 + 11, network: 'stk-x', method: 'devnet_mint' }));
    recorder.record(usageEvent({ key: 'named', at: T0 + 12, network: 'stk-x', method: 'starknet_made_up' }));
    await recorder.close();
    const top = await store.topMethods(all('named'), 100);
    expect(top.map((m) => [m.network, m.method, m.requests]).sort()).toEqual(
      [
        ['eth-devnet', '(dev)', 2],
        ['eth-devnet', '(invalid)', 1],
        ['eth-devnet', '(other)', 2],
        ['eth-devnet', 'eth_call', 1],
        ['eth-devnet', 'eth_subscription', 1],
        ['stk-x', '(dev)', 1],
        ['stk-x', '(other)', 1],
        ['stk-x', 'starknet_call', 1],
      ].sort(),
    );
    const logged = (await store.recentRequests('named', { limit: 100 })).map((r) => r.method);
    expect(new Set(logged)).toEqual(new Set(top.map((m) => m.method)));
  });

  it('an outage after part of a batch was written puts back only the rest (nothing lost, nothing twice)', async () => {
    let calls = 0;
    const partly: Pick<UsageStore, 'write'> = {
      async write(batch) {
        if (calls++ > 0) return store.write(batch);
        // the aggregates are stored, then the database goes away
        await store.write({ ...batch, errors: [], recent: [] });
        throw new UsageWriteError({ aggregates: [], errors: batch.errors, recent: batch.recent }, new Error('gone'));
      },
    };
    const recorder = createUsageRecorder({ store: partly, flushIntervalMs: 60_000 });
    recorder.record(usageEvent({ key: 'partly', at: T0, status: 500 }));
    recorder.record(usageEvent({ key: 'partly', at: T0 + 1 }));
    await expect(recorder.flush()).rejects.toThrow('gone');
    expect(recorder.health().pendingRows).toBe(3); // one error count and two requests
    await recorder.flush();
    expect(await store.totals(all('partly'))).toMatchObject({ requests: 2, errors: 1 });
    expect(await store.errorsByStatus(all('partly'))).toEqual([{ status: 500, errorCode: null, count: 1 }]);
    expect(await store.recentRequests('partly', { limit: 10 })).toHaveLength(2);
    await recorder.close();
  });

  it('health(): failing after flushes fail in a row, ok again after one succeeds; set-aside rows counted and told', async () => {
    let down = true;
    const told: Array<[number, string | undefined]> = [];
    const recorder = createUsageRecorder({
      store: { write: (batch) => (down ? Promise.reject(new Error('db down')) : store.write(batch)) },
      flushIntervalMs: 60_000,
      onSetAside: (rows, reason) => told.push([rows, reason]),
    });
    expect(recorder.health()).toEqual({
      status: 'ok',
      consecutiveFailures: 0,
      lastSuccessAt: null,
      pendingRows: 0,
      setAsideRows: 0,
      flushes: 0,
      flushMsTotal: 0,
      lastFlushMs: null,
    });
    recorder.record(usageEvent({ key: 'health', at: T0 }));
    for (let i = 1; i <= USAGE_FAILING_AFTER; i++) {
      await expect(recorder.flush()).rejects.toThrow('db down');
      expect(recorder.health()).toMatchObject({
        status: i < USAGE_FAILING_AFTER ? 'ok' : 'failing',
        consecutiveFailures: i,
        pendingRows: 2,
      });
    }
    down = false;
    // a row the database refuses (a time out of its range) beside one it takes
    recorder.record(usageEvent({ key: 'health', at: 1e20 }));
    await recorder.flush();
    const health = recorder.health();
    expect(health).toMatchObject({ status: 'ok', consecutiveFailures: 0, pendingRows: 0, setAsideRows: 2 });
    // the flush that wrote is counted with its time; the failed ones are not
    expect(health.flushes).toBe(1);
    expect(health.lastFlushMs).toBeGreaterThan(0);
    expect(health.flushMsTotal).toBe(health.lastFlushMs);
    expect(Date.parse(health.lastSuccessAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(told).toHaveLength(1);
    expect(told[0]![0]).toBe(2);
    expect(told[0]![1]).toMatch(/range/);
    expect((await store.totals(all('health'))).requests).toBe(1);
    await recorder.close();
  });
});
