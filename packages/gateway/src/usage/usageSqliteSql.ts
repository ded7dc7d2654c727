import type { SqlStatement } from '../store/SqlConnection.js';
import { SQLITE_NOW, sqliteTimeInRange } from '../store/sqliteTime.js';
import type { UsageBatch, UsageBucket } from './UsageStore.js';
import { DEAD_LETTER_KEEP, type UsageDialect } from './UsageDialect.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const WIDTH_MS: Record<UsageBucket, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': HOUR,
  '1d': 86_400_000,
};
/** Stands for a null error code in the error tables' unique index (SQLite's UNIQUE lets nulls repeat; no int32 is it). */
const NO_CODE = 4_294_967_296;

/**
 * A time column: epoch ms, an integer within what PostgreSQL's `timestamptz` holds too. `ANY`
 * (in these STRICT tables) so that a time no integer column could hold (1e20) reaches the check
 * and is refused as out of range, like PostgreSQL's "timestamp out of range".
 */
const time = (col: string) => `${col} ANY NOT NULL ${sqliteTimeInRange(col)}`;
const SUMS = `requests integer NOT NULL, credits integer NOT NULL, errors integer NOT NULL,
  latency_ms_sum real NOT NULL, latency_ms_max real NOT NULL, bytes_in integer NOT NULL, bytes_out integer NOT NULL`;

/**
 * The usage tables in the embedded SQLite database: the same tables, columns and meaning as
 * PostgreSQL's (`USAGE_SCHEMA` in `usageSql.ts`), STRICT (a value of the wrong type is refused,
 * not stored), times as epoch ms. The error tables' uniqueness treats a null error code as one
 * value (PostgreSQL's NULLS NOT DISTINCT) through an index on `ifnull(error_code, 2^32)`.
 */
export const SQLITE_USAGE_SCHEMA: readonly string[] = [
  ...(['minute', 'hour'] as const).flatMap((t) => [
    `CREATE TABLE IF NOT EXISTS usage_${t} (
      ${time(t)}, key text NOT NULL, network text NOT NULL, method text NOT NULL, account_id text NOT NULL,
      ${SUMS},
      PRIMARY KEY (key, ${t}, network, method)
    ) STRICT, WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS usage_${t}_${t} ON usage_${t} (${t})`,
    `CREATE TABLE IF NOT EXISTS usage_account_${t} (
      ${time(t)}, account_id text NOT NULL, network text NOT NULL, method text NOT NULL,
      ${SUMS},
      PRIMARY KEY (account_id, ${t}, network, method)
    ) STRICT, WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS usage_account_${t}_${t} ON usage_account_${t} (${t})`,
    `CREATE TABLE IF NOT EXISTS usage_errors_${t} (
      ${time(t)}, key text NOT NULL, network text NOT NULL, status integer NOT NULL, error_code integer,
      account_id text NOT NULL, count integer NOT NULL
    ) STRICT`,
    `CREATE UNIQUE INDEX IF NOT EXISTS usage_errors_${t}_unique
      ON usage_errors_${t} (key, ${t}, network, status, ifnull(error_code, ${NO_CODE}))`,
    `CREATE INDEX IF NOT EXISTS usage_errors_${t}_account ON usage_errors_${t} (account_id, ${t})`,
    `CREATE INDEX IF NOT EXISTS usage_errors_${t}_${t} ON usage_errors_${t} (${t})`,
  ]),
  `CREATE TABLE IF NOT EXISTS usage_recent (
    id integer PRIMARY KEY, key text NOT NULL, account_id text NOT NULL, request_id text NOT NULL, ${time('at')},
    network text NOT NULL, method text NOT NULL, transport text NOT NULL, status integer NOT NULL,
    error_code integer, refusal text, latency_ms real NOT NULL, credits integer NOT NULL,
    bytes_in integer NOT NULL, bytes_out integer NOT NULL, upstream text, failover text
  ) STRICT`,
  'CREATE INDEX IF NOT EXISTS usage_recent_key_at ON usage_recent (key, at DESC, id DESC)',
  `CREATE TABLE IF NOT EXISTS usage_dead_letter (
    id integer PRIMARY KEY, at integer NOT NULL DEFAULT (${SQLITE_NOW}),
    kind text NOT NULL, data text NOT NULL, error text NOT NULL
  ) STRICT`,
];

const COLS = 'requests, credits, errors, latency_ms_sum, latency_ms_max, bytes_in, bytes_out';
const SUMS_OF = `sum(requests), sum(credits), sum(errors), sum(latency_ms_sum), max(latency_ms_max),
  sum(bytes_in), sum(bytes_out)`;
const ADD_ACCOUNT = `requests = requests + excluded.requests, credits = credits + excluded.credits,
  errors = errors + excluded.errors, latency_ms_sum = latency_ms_sum + excluded.latency_ms_sum,
  latency_ms_max = max(latency_ms_max, excluded.latency_ms_max),
  bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out`;
const ADD = `${ADD_ACCOUNT}, account_id = excluded.account_id`;

/**
 * A flush's aggregates go once into this table of the worker's connection (`temp`: no other
 * connection sees it, nothing of it is on disk), then into the four roll-ups, summed per row of
 * each (`INSERT … SELECT … GROUP BY`, as PostgreSQL's statement does): the rows cross to the worker
 * once, not once per roll-up. It is emptied at the end of each flush.
 */
const BATCH = 'temp.usage_batch';
const BATCH_TABLE = `CREATE TEMP TABLE IF NOT EXISTS usage_batch (
  minute ANY, hour ANY, key text, account_id text, network text, method text, ${COLS})`;

/** One roll-up from the batch table (`WHERE true` keeps SQLite from reading `ON CONFLICT` as a join's). */
const rollUp = (table: string, t: 'minute' | 'hour', by: 'key' | 'account_id') =>
  by === 'key'
    ? `INSERT INTO ${table} (${t}, key, network, method, account_id, ${COLS})
      SELECT ${t}, key, network, method, max(account_id), ${SUMS_OF} FROM ${BATCH} WHERE true
      GROUP BY key, ${t}, network, method
      ON CONFLICT (key, ${t}, network, method) DO UPDATE SET ${ADD}`
    : `INSERT INTO ${table} (${t}, account_id, network, method, ${COLS})
      SELECT ${t}, account_id, network, method, ${SUMS_OF} FROM ${BATCH} WHERE true
      GROUP BY account_id, ${t}, network, method
      ON CONFLICT (account_id, ${t}, network, method) DO UPDATE SET ${ADD_ACCOUNT}`;

/** A flush's statements, in one transaction. */
const WRITE = {
  batchTable: BATCH_TABLE,
  emptyBatch: `DELETE FROM ${BATCH}`,
  toBatch: `INSERT INTO ${BATCH} (minute, hour, key, account_id, network, method, ${COLS})
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
  rollUps: [
    rollUp('usage_minute', 'minute', 'key'),
    rollUp('usage_hour', 'hour', 'key'),
    rollUp('usage_account_minute', 'minute', 'account_id'),
    rollUp('usage_account_hour', 'hour', 'account_id'),
  ],
  errors: (
    t: 'minute' | 'hour',
  ) => `INSERT INTO usage_errors_${t} (${t}, key, network, status, error_code, account_id, count)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (key, ${t}, network, status, ifnull(error_code, ${NO_CODE}))
    DO UPDATE SET count = count + excluded.count, account_id = excluded.account_id`,
  recent: `INSERT INTO usage_recent (key, account_id, request_id, at, network, method, transport, status, error_code,
      refusal, latency_ms, credits, bytes_in, bytes_out, upstream, failover)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)`,
} as const;

/** The start of the `width` bucket `ms` falls in (a time that is not a number stays as it is, to be refused). */
const floorTo = (ms: number, width: number) => (Number.isFinite(ms) ? Math.floor(ms / width) * width : ms);

/** A flush: its rows' statements, in PostgreSQL's order (aggregates, error counts, requests by time). */
function writeStatements(batch: UsageBatch): SqlStatement[] {
  const { aggregates: a, errors: e } = batch;
  const statements: SqlStatement[] = [];
  if (a.length > 0) {
    statements.push(
      { sql: WRITE.batchTable },
      { sql: WRITE.emptyBatch },
      {
        sql: WRITE.toBatch,
        each: a.map((x) => [
          floorTo(x.minute, MINUTE),
          floorTo(x.minute, HOUR),
          x.key,
          x.accountId,
          x.network,
          x.method,
          x.requests,
          x.credits,
          x.errors,
          x.latencyMsSum,
          x.latencyMsMax,
          x.bytesIn,
          x.bytesOut,
        ]),
      },
      ...WRITE.rollUps.map((sql) => ({ sql })),
      { sql: WRITE.emptyBatch },
    );
  }
  if (e.length > 0) {
    for (const [t, width] of [
      ['minute', MINUTE],
      ['hour', HOUR],
    ] as const) {
      statements.push({
        sql: WRITE.errors(t),
        each: e.map((x) => [floorTo(x.minute, width), x.key, x.network, x.status, x.errorCode, x.accountId, x.count]),
      });
    }
  }
  if (batch.recent.length > 0) {
    statements.push({
      sql: WRITE.recent,
      each: [...batch.recent]
        .sort((x, y) => x.at - y.at)
        .map((x) => [
          x.key,
          x.accountId,
          x.requestId,
          Number.isFinite(x.at) ? Math.floor(x.at) : x.at,
          x.network,
          x.method,
          x.transport,
          x.status,
          x.errorCode ?? null,
          x.refusal ?? null,
          x.latencyMs,
          x.credits,
          x.bytesIn,
          x.bytesOut,
          x.upstream ?? null,
          x.failover ?? null,
        ]),
    });
  }
  return statements;
}

/**
 * The usage store's SQLite dialect (the embedded database): a flush is one transaction of
 * prepared statements, sent to the database's worker thread in one message: the aggregates into
 * the batch table once and from there into the four roll-ups (summed, then added by `ON CONFLICT
 * … DO UPDATE`), error counts and requests row by row (`each`); duplicates in a batch and writes
 * of several flushes add up as in PostgreSQL. Minutes and hours are binned here (UTC, from the
 * epoch); a time out of range is refused by the tables' checks and set aside.
 */
export const SQLITE_USAGE_SQL: UsageDialect = {
  dialect: 'sqlite',
  async applySchema(sql) {
    await sql.transaction(SQLITE_USAGE_SCHEMA.map((s) => ({ sql: s })));
  },
  async write(sql, batch) {
    const statements = writeStatements(batch);
    if (statements.length > 0) await sql.transaction(statements);
  },
  async setAside(sql, rows) {
    await sql.transaction([
      {
        sql: 'INSERT INTO usage_dead_letter (kind, data, error) VALUES (?1, ?2, ?3)',
        each: rows.map((r) => [r.kind, r.data, r.error]),
      },
      {
        sql: `DELETE FROM usage_dead_letter WHERE id <= (
          SELECT id FROM usage_dead_letter ORDER BY id DESC LIMIT 1 OFFSET ${DEAD_LETTER_KEEP})`,
      },
    ]);
  },
  async trimRecent(sql, keys, keep) {
    await sql.transaction([
      {
        sql: `DELETE FROM usage_recent WHERE key = ?1 AND id IN (
          SELECT id FROM usage_recent WHERE key = ?1 ORDER BY at DESC, id DESC LIMIT -1 OFFSET ?2)`,
        each: keys.map((k) => [k, keep]),
      },
    ]);
  },
  param: (n) => `?${n}`,
  timeValue: (ms) => ms,
  timeParam: (n) => `?${n}`,
  bin: (bucket, col) => {
    const w = WIDTH_MS[bucket];
    return `(${col} - ((${col} % ${w}) + ${w}) % ${w})`;
  },
};
