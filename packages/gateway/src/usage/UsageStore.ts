import type { UsageEvent } from './UsageEvent.js';

/** Which requests a usage query covers: one key, or every key of one account (or everything). */
export interface UsageScope {
  readonly accountId?: string | undefined;
  readonly key?: string | undefined;
  /** Inclusive start, epoch ms. */
  readonly from: number;
  /** Exclusive end, epoch ms. */
  readonly to: number;
}

/** Bucket widths a series can be drawn with. */
export type UsageBucket = '1m' | '5m' | '15m' | '1h' | '1d';

/** Aggregates over one bucket (or one group). */
export interface UsageTotals {
  readonly requests: number;
  readonly credits: number;
  readonly errors: number;
  readonly latencyMsAvg: number;
  readonly latencyMsMax: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** One point of a series: the bucket's start and its totals, per network when grouped. */
export interface UsagePoint extends UsageTotals {
  /** Bucket start, ISO time. */
  readonly at: string;
  readonly network?: string;
}

/** One row of the request explorer. */
export interface RecentRequest {
  readonly requestId: string;
  readonly at: string;
  readonly key: string;
  readonly network: string;
  readonly method: string;
  readonly transport: string;
  readonly status: number;
  readonly errorCode: number | null;
  /** Why the gateway refused it (`origin`, `rate`, `daily`, `method`, `contract`, …), when it did. */
  readonly refusal: string | null;
  readonly latencyMs: number;
  readonly credits: number;
  /** Request and response body bytes (IPFS: what crossed the connection; a batch item: its share). */
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly upstream: string | null;
  /** `partner` when a failover partner answered (failover protection), else null. */
  readonly failover: 'partner' | null;
}

/** Reads recorded usage (the admin API and the dashboard draw from it). */
export interface UsageQueries {
  series(scope: UsageScope, bucket: UsageBucket, options?: { byNetwork?: boolean }): Promise<UsagePoint[]>;
  totals(scope: UsageScope): Promise<UsageTotals>;
  topMethods(scope: UsageScope, limit: number): Promise<Array<{ method: string; network: string } & UsageTotals>>;
  /** Answers by HTTP status and JSON-RPC error code. */
  errorsByStatus(scope: UsageScope): Promise<Array<{ status: number; errorCode: number | null; count: number }>>;
  /**
   * Newest first, at most `limit`; filters by method, status and request id when given (the
   * calls of one JSON-RPC batch share their request's id).
   */
  recentRequests(
    key: string,
    options: {
      limit: number;
      method?: string | undefined;
      status?: number | undefined;
      requestId?: string | undefined;
    },
  ): Promise<RecentRequest[]>;
}

/**
 * Per (minute, key, network, method) aggregates, as the recorder sums them between flushes.
 * Writing adds them to what the store already holds for that minute.
 */
export interface UsageAggregate {
  /** Epoch ms of the minute's start (the store rounds down to the minute anyway). */
  readonly minute: number;
  readonly key: string;
  readonly accountId: string;
  readonly network: string;
  readonly method: string;
  readonly requests: number;
  readonly credits: number;
  readonly errors: number;
  readonly latencyMsSum: number;
  readonly latencyMsMax: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** How many answers failed with one (HTTP status, error code) in one minute. */
export interface UsageErrorCount {
  /** Epoch ms of the minute's start. */
  readonly minute: number;
  readonly key: string;
  readonly accountId: string;
  readonly network: string;
  readonly status: number;
  readonly errorCode: number | null;
  readonly count: number;
}

/** What one flush writes; each part may be empty. */
export interface UsageBatch {
  readonly aggregates: readonly UsageAggregate[];
  readonly errors: readonly UsageErrorCount[];
  /** Requests for the request explorer (any order). */
  readonly recent: readonly UsageEvent[];
  /** How many requests the log keeps per key after this write (default 200). */
  readonly keepRecentPerKey?: number | undefined;
}

/** What one write did besides storing the batch. */
export interface UsageWriteResult {
  /** Rows the database refused and that were set aside (kept in the dead-letter table) instead. */
  readonly setAside: number;
  /** The database's reason for the first of them (for the operator's log). */
  readonly setAsideReason?: string | undefined;
}

/** One row the database refused, as kept in the dead-letter table. */
export interface DeadLetter {
  /** When it was set aside, ISO time. */
  readonly at: string;
  /** Which part of a batch it was: `aggregate`, `error` or `recent`. */
  readonly kind: 'aggregate' | 'error' | 'recent';
  /** The row as JSON (cut to 2,000 characters). */
  readonly data: string;
  /** The database's error (cut to 500 characters). */
  readonly error: string;
}

/** Where usage is written and read: the embedded database (SQLite) or PostgreSQL. */
export interface UsageStore extends UsageQueries {
  /**
   * Adds the batch to the stored aggregates (in parts of at most 1,000 rows, each all or nothing:
   * one statement in PostgreSQL, one transaction in SQLite), then trims the request log. Every
   * text and number is bounded first (`cleanUsageBatch`). A row the database still refuses
   * (a data error, not an outage) is set aside into the dead-letter table and the others are
   * written. Throws when the database is away; a {@link UsageWriteError} then holds exactly the
   * rows not written (the parts before it are stored).
   */
  write(batch: UsageBatch): Promise<UsageWriteResult>;
  /** The rows set aside, newest first (at most `limit`; the table keeps the newest 10,000). */
  deadLetters(limit: number): Promise<DeadLetter[]>;
  close(): Promise<void>;
}
