import { createUsageMethodNamer, type UsageMethodNamer } from './createUsageMethodNamer.js';
import type { UsageEvent, UsageRecorder } from './UsageEvent.js';
import type { UsageAggregate, UsageBatch, UsageErrorCount, UsageStore } from './UsageStore.js';
import { UsageWriteError } from './UsageWriteError.js';

/** Flushes failing in a row before the recorder reports itself `failing`. */
export const USAGE_FAILING_AFTER = 3;

/** How the recorder's flushes are going (for `/health` and `/metrics`; no key, no error text). */
export interface UsageRecorderHealth {
  /** `failing` once {@link USAGE_FAILING_AFTER} flushes in a row failed; `ok` again after one succeeds. */
  readonly status: 'ok' | 'failing';
  readonly consecutiveFailures: number;
  /** When a flush last succeeded (ISO time), or null before the first. */
  readonly lastSuccessAt: string | null;
  /** Rows waiting for the next flush (aggregates, error counts and requests). */
  readonly pendingRows: number;
  /** Rows the database refused and that were set aside since the start (dead-letter table). */
  readonly setAsideRows: number;
  /** Flushes that wrote something since the start, and the time they took together (ms, wall clock). */
  readonly flushes: number;
  readonly flushMsTotal: number;
  /** How long the last flush that wrote something took (ms), or null before the first. */
  readonly lastFlushMs: number | null;
}

/** The usage recorder, and how its flushes are going. */
export interface HealthReportingUsageRecorder extends UsageRecorder {
  health(): UsageRecorderHealth;
}

/** Options of {@link createUsageRecorder}. */
export interface UsageRecorderOptions {
  /** Where flushes write (only `write` is used). */
  readonly store: Pick<UsageStore, 'write'>;
  /**
   * The name an event's method is recorded under (default: {@link createUsageMethodNamer} with
   * no networks). Its set of answers bounds the rows a key can make per minute.
   */
  readonly methodName?: UsageMethodNamer;
  /** How often the timer flushes, ms (default 1000). */
  readonly flushIntervalMs?: number;
  /** Requests kept per key for the request explorer, in memory and in the store (default 200). */
  readonly maxRecentPerKey?: number;
  /**
   * Requests of one key written per flush (default 50): a key sending more than that per second
   * has its newest written, so a flood's request log cannot make a flush long. The store still
   * keeps `maxRecentPerKey`.
   */
  readonly maxRecentPerFlush?: number;
  /** Told about a timer flush that failed (its data is kept and retried on the next flush). */
  readonly onError?: (err: unknown) => void;
  /** Told about rows the database refused and that were set aside (count, the first one's reason). */
  readonly onSetAside?: (rows: number, reason: string | undefined) => void;
}

interface Agg {
  accountId: string;
  requests: number;
  credits: number;
  errors: number;
  latencyMsSum: number;
  latencyMsMax: number;
  bytesIn: number;
  bytesOut: number;
}

/** minute -> key -> network -> method -> sums: no string is built on the hot path. */
type Aggregates = Map<number, Map<string, Map<string, Map<string, Agg>>>>;

/** The newest `cap` events of one key, oldest overwritten first. */
class Ring {
  readonly items: UsageEvent[] = [];
  next = 0;
  constructor(readonly cap: number) {}
  push(e: UsageEvent): void {
    if (this.cap <= 0) return;
    if (this.items.length < this.cap) this.items.push(e);
    else {
      this.items[this.next] = e;
      this.next = (this.next + 1) % this.cap;
    }
  }
  /** Oldest first. */
  drain(out: UsageEvent[]): void {
    const { items, next } = this;
    for (let i = next; i < items.length; i++) out.push(items[i]!);
    for (let i = 0; i < next; i++) out.push(items[i]!);
  }
}

const MINUTE = 60_000;
const SEP = '\u0000';
const noop = () => {};

function aggFor(aggs: Aggregates, minute: number, key: string, network: string, method: string, account: string) {
  let byKey = aggs.get(minute);
  if (byKey === undefined) {
    byKey = new Map();
    aggs.set(minute, byKey);
  }
  let byNetwork = byKey.get(key);
  if (byNetwork === undefined) {
    byNetwork = new Map();
    byKey.set(key, byNetwork);
  }
  let byMethod = byNetwork.get(network);
  if (byMethod === undefined) {
    byMethod = new Map();
    byNetwork.set(network, byMethod);
  }
  let agg = byMethod.get(method);
  if (agg === undefined) {
    agg = {
      accountId: account,
      requests: 0,
      credits: 0,
      errors: 0,
      latencyMsSum: 0,
      latencyMsMax: 0,
      bytesIn: 0,
      bytesOut: 0,
    };
    byMethod.set(method, agg);
  }
  return agg;
}

/**
 * The usage recorder: `record` (on every request's path) only adds the event to in-memory
 * per-minute sums and to its key's ring of recent requests, under the method name
 * `methodName` gives (a table's name or a placeholder, never the client's own text); a timer
 * (unref'd) writes them to `store` every `flushIntervalMs`. Flushes never overlap; a flush that
 * fails because the database is away puts back what was not written for the next one, so an
 * outage loses nothing; rows the database refuses are set aside by the store (`onSetAside`)
 * and never hold back the others. `health()` says how flushes are going. `close` stops the
 * timer and writes what is left (events recorded after `close` are dropped): a graceful stop
 * loses nothing, a crash at most one interval.
 *
 * @example
 * const usage = await openEmbeddedUsageStore(undefined);
 * const recorder = createUsageRecorder({ store: usage, onError: (err) => log.warn({ err }, 'usage flush') });
 * recorder.record(event);
 * await recorder.close();
 * await usage.close();
 */
export function createUsageRecorder(options: UsageRecorderOptions): HealthReportingUsageRecorder {
  const { store, flushIntervalMs = 1000, maxRecentPerKey = 200, maxRecentPerFlush = 50, onError = noop } = options;
  const methodName = options.methodName ?? createUsageMethodNamer();
  const onSetAside = options.onSetAside ?? noop;
  let consecutiveFailures = 0;
  let lastSuccessAt: number | undefined;
  let setAsideRows = 0;
  let flushes = 0;
  let flushMsTotal = 0;
  let lastFlushMs: number | null = null;
  const ringSize = Math.min(maxRecentPerKey, maxRecentPerFlush);
  let aggs: Aggregates = new Map();
  let errors = new Map<string, { -readonly [K in keyof UsageErrorCount]: UsageErrorCount[K] }>();
  let rings = new Map<string, Ring>();
  let closed = false;
  let queued = 0;
  let tail: Promise<void> = Promise.resolve();

  const addError = (
    minute: number,
    key: string,
    accountId: string,
    network: string,
    status: number,
    errorCode: number | null,
    count: number,
  ) => {
    const id = `${minute}${SEP}${key}${SEP}${network}${SEP}${status}${SEP}${errorCode}`;
    const found = errors.get(id);
    if (found === undefined) errors.set(id, { minute, key, accountId, network, status, errorCode, count });
    else found.count += count;
  };

  const pushRecent = (e: UsageEvent) => {
    let ring = rings.get(e.key);
    if (ring === undefined) {
      ring = new Ring(ringSize);
      rings.set(e.key, ring);
    }
    ring.push(e);
  };

  /** Swaps the buffers out and turns them into a batch. */
  const take = (): UsageBatch => {
    const aggregates: UsageAggregate[] = [];
    for (const [minute, byKey] of aggs)
      for (const [key, byNetwork] of byKey)
        for (const [network, byMethod] of byNetwork)
          for (const [method, a] of byMethod) aggregates.push({ minute, key, network, method, ...a });
    const recent: UsageEvent[] = [];
    for (const ring of rings.values()) ring.drain(recent);
    const batch = { aggregates, errors: [...errors.values()], recent, keepRecentPerKey: maxRecentPerKey };
    aggs = new Map();
    errors = new Map();
    rings = new Map();
    return batch;
  };

  /** Merges a batch that failed to write back into the buffers (older than what they hold). */
  const putBack = (batch: UsageBatch) => {
    for (const a of batch.aggregates) {
      const agg = aggFor(aggs, a.minute, a.key, a.network, a.method, a.accountId);
      agg.requests += a.requests;
      agg.credits += a.credits;
      agg.errors += a.errors;
      agg.latencyMsSum += a.latencyMsSum;
      if (a.latencyMsMax > agg.latencyMsMax) agg.latencyMsMax = a.latencyMsMax;
      agg.bytesIn += a.bytesIn;
      agg.bytesOut += a.bytesOut;
    }
    for (const e of batch.errors) addError(e.minute, e.key, e.accountId, e.network, e.status, e.errorCode, e.count);
    const newer = rings;
    rings = new Map();
    for (const e of batch.recent) pushRecent(e);
    const later: UsageEvent[] = [];
    for (const ring of newer.values()) ring.drain(later);
    for (const e of later) pushRecent(e);
  };

  const flushOnce = async () => {
    if (aggs.size === 0 && errors.size === 0 && rings.size === 0) {
      consecutiveFailures = 0;
      lastSuccessAt = Date.now();
      return;
    }
    const batch = take();
    let result: Awaited<ReturnType<typeof store.write>>;
    const started = performance.now();
    try {
      result = await store.write(batch);
      lastFlushMs = performance.now() - started;
      flushes++;
      flushMsTotal += lastFlushMs;
    } catch (err) {
      // what the store did not write comes back (all of it, unless it says otherwise)
      putBack(err instanceof UsageWriteError ? err.unwritten : batch);
      consecutiveFailures++;
      throw err;
    }
    consecutiveFailures = 0;
    lastSuccessAt = Date.now();
    if (result !== undefined && result.setAside > 0) {
      setAsideRows += result.setAside;
      onSetAside(result.setAside, result.setAsideReason);
    }
  };

  const pendingRows = () => {
    let n = errors.size;
    for (const byKey of aggs.values())
      for (const byNetwork of byKey.values()) for (const byMethod of byNetwork.values()) n += byMethod.size;
    for (const ring of rings.values()) n += ring.items.length;
    return n;
  };

  const flush = (): Promise<void> => {
    queued++;
    const run = tail.then(flushOnce).finally(() => {
      queued--;
    });
    tail = run.then(noop, noop);
    return run;
  };

  const timer = setInterval(() => {
    if (queued === 0) flush().catch(onError);
  }, flushIntervalMs);
  timer.unref();

  return {
    record(event) {
      if (closed) return;
      // the client's text never reaches storage: a table's name or a placeholder does
      const method = methodName(event.network, event.transport, event.method);
      const e = method === event.method ? event : { ...event, method };
      const at = e.at;
      const agg = aggFor(aggs, at - (at % MINUTE), e.key, e.network, method, e.accountId);
      agg.requests++;
      agg.credits += e.credits;
      const latency = e.latencyMs;
      agg.latencyMsSum += latency;
      if (latency > agg.latencyMsMax) agg.latencyMsMax = latency;
      agg.bytesIn += e.bytesIn;
      agg.bytesOut += e.bytesOut;
      if (e.status >= 400 || e.errorCode !== undefined || e.refusal !== undefined) {
        agg.errors++;
        addError(at - (at % MINUTE), e.key, e.accountId, e.network, e.status, e.errorCode ?? null, 1);
      }
      pushRecent(e);
    },
    flush,
    health: () => ({
      status: consecutiveFailures >= USAGE_FAILING_AFTER ? 'failing' : 'ok',
      consecutiveFailures,
      lastSuccessAt: lastSuccessAt === undefined ? null : new Date(lastSuccessAt).toISOString(),
      pendingRows: pendingRows(),
      setAsideRows,
      flushes,
      flushMsTotal,
      lastFlushMs,
    }),
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}
