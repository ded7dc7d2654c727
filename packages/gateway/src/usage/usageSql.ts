import type { SqlDialect } from '../store/SqlConnection.js';
import type { UsageBatch, UsageBucket } from './UsageStore.js';
import { DEAD_LETTER_KEEP, type UsageDialect } from './UsageDialect.js';
import { SQLITE_USAGE_SQL } from './usageSqliteSql.js';

/**
 * The request log's table as it was first created. Columns added since come by `ALTER` in
 * `USAGE_SCHEMA`, so new and older databases end up alike; the migration test starts from it.
 */
export const USAGE_RECENT_TABLE = `
CREATE TABLE IF NOT EXISTS usage_recent (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key         text NOT NULL,
  account_id  text NOT NULL,
  request_id  text NOT NULL,
  at          timestamptz NOT NULL,
  network     text NOT NULL,
  method      text NOT NULL,
  transport   text NOT NULL,
  status      integer NOT NULL,
  error_code  integer,
  refusal     text,
  latency_ms  double precision NOT NULL,
  credits     bigint NOT NULL,
  bytes_in    bigint NOT NULL,
  bytes_out   bigint NOT NULL,
  upstream    text
);`;

/**
 * Usage tables in PostgreSQL (and in PGlite data directories of earlier versions, which
 * `migratePgliteDataDir` brings to them before copying them; the embedded SQLite has the same
 * tables in `usageSqliteSql.ts`). Idempotent.
 *
 * - `usage_minute`: per (minute, key, network, method) sums; `usage_hour` holds the same sums
 *   per hour, so that long ranges read 60 times fewer rows.
 * - `usage_account_minute` / `usage_account_hour`: the same per account instead of per key, so
 *   that an account's queries read one row where its keys would give a hundred.
 *   All four are written by the one statement of a flush.
 * - `usage_errors_minute` / `usage_errors_hour`: failed answers per (key, network, status, error code).
 * - `usage_recent`: the request explorer's log, trimmed to the newest N per key on every write;
 *   `failover` is `partner` when a failover partner answered (added by `ALTER` to the table as
 *   first created, `USAGE_RECENT_TABLE`).
 * - `usage_dead_letter`: rows a write could not store (the database refused them), kept for the
 *   operator with the database's reason; the newest 10,000.
 *
 * Times are `timestamptz` binned from the Unix epoch (UTC), whatever the session's time zone.
 *
 * @example
 * await db.exec(USAGE_SCHEMA);
 */
export const USAGE_SCHEMA = `
CREATE TABLE IF NOT EXISTS usage_minute (
  minute          timestamptz NOT NULL,
  key             text NOT NULL,
  network         text NOT NULL,
  method          text NOT NULL,
  account_id      text NOT NULL,
  requests        bigint NOT NULL,
  credits         bigint NOT NULL,
  errors          bigint NOT NULL,
  latency_ms_sum  double precision NOT NULL,
  latency_ms_max  double precision NOT NULL,
  bytes_in        bigint NOT NULL,
  bytes_out       bigint NOT NULL,
  PRIMARY KEY (key, minute, network, method)
);
CREATE INDEX IF NOT EXISTS usage_minute_minute ON usage_minute (minute);
CREATE TABLE IF NOT EXISTS usage_hour (
  hour            timestamptz NOT NULL,
  key             text NOT NULL,
  network         text NOT NULL,
  method          text NOT NULL,
  account_id      text NOT NULL,
  requests        bigint NOT NULL,
  credits         bigint NOT NULL,
  errors          bigint NOT NULL,
  latency_ms_sum  double precision NOT NULL,
  latency_ms_max  double precision NOT NULL,
  bytes_in        bigint NOT NULL,
  bytes_out       bigint NOT NULL,
  PRIMARY KEY (key, hour, network, method)
);
CREATE INDEX IF NOT EXISTS usage_hour_hour ON usage_hour (hour);
CREATE TABLE IF NOT EXISTS usage_account_minute (
  minute          timestamptz NOT NULL,
  account_id      text NOT NULL,
  network         text NOT NULL,
  method          text NOT NULL,
  requests        bigint NOT NULL,
  credits         bigint NOT NULL,
  errors          bigint NOT NULL,
  latency_ms_sum  double precision NOT NULL,
  latency_ms_max  double precision NOT NULL,
  bytes_in        bigint NOT NULL,
  bytes_out       bigint NOT NULL,
  PRIMARY KEY (account_id, minute, network, method)
);
CREATE INDEX IF NOT EXISTS usage_account_minute_minute ON usage_account_minute (minute);
CREATE TABLE IF NOT EXISTS usage_account_hour (
  hour            timestamptz NOT NULL,
  account_id      text NOT NULL,
  network         text NOT NULL,
  method          text NOT NULL,
  requests        bigint NOT NULL,
  credits         bigint NOT NULL,
  errors          bigint NOT NULL,
  latency_ms_sum  double precision NOT NULL,
  latency_ms_max  double precision NOT NULL,
  bytes_in        bigint NOT NULL,
  bytes_out       bigint NOT NULL,
  PRIMARY KEY (account_id, hour, network, method)
);
CREATE INDEX IF NOT EXISTS usage_account_hour_hour ON usage_account_hour (hour);
CREATE TABLE IF NOT EXISTS usage_errors_minute (
  minute      timestamptz NOT NULL,
  key         text NOT NULL,
  network     text NOT NULL,
  status      integer NOT NULL,
  error_code  integer,
  account_id  text NOT NULL,
  count       bigint NOT NULL,
  CONSTRAINT usage_errors_minute_unique UNIQUE NULLS NOT DISTINCT (key, minute, network, status, error_code)
);
CREATE INDEX IF NOT EXISTS usage_errors_minute_account ON usage_errors_minute (account_id, minute);
CREATE INDEX IF NOT EXISTS usage_errors_minute_minute ON usage_errors_minute (minute);
CREATE TABLE IF NOT EXISTS usage_errors_hour (
  hour        timestamptz NOT NULL,
  key         text NOT NULL,
  network     text NOT NULL,
  status      integer NOT NULL,
  error_code  integer,
  account_id  text NOT NULL,
  count       bigint NOT NULL,
  CONSTRAINT usage_errors_hour_unique UNIQUE NULLS NOT DISTINCT (key, hour, network, status, error_code)
);
CREATE INDEX IF NOT EXISTS usage_errors_hour_account ON usage_errors_hour (account_id, hour);
CREATE INDEX IF NOT EXISTS usage_errors_hour_hour ON usage_errors_hour (hour);
${USAGE_RECENT_TABLE}
CREATE INDEX IF NOT EXISTS usage_recent_key_at ON usage_recent (key, at DESC, id DESC);
-- columns added to usage_recent since it was first created
ALTER TABLE usage_recent ADD COLUMN IF NOT EXISTS failover text;
CREATE TABLE IF NOT EXISTS usage_dead_letter (
  id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at     timestamptz NOT NULL DEFAULT now(),
  kind   text NOT NULL,
  data   text NOT NULL,
  error  text NOT NULL
);
`;

/**
 * Sets rows aside: `$1` kinds, `$2` the rows as JSON, `$3` the errors; then keeps the newest
 * {@link DEAD_LETTER_KEEP} rows (the ones just added come on top of those).
 *
 * @example
 * await query(DEAD_LETTER_SQL, [['recent'], ['{"key":"k1",…}'], ['value too long']]);
 */
export const DEAD_LETTER_SQL = `
WITH added AS (
  INSERT INTO usage_dead_letter (kind, data, error)
  SELECT kind, data, error FROM unnest($1::text[], $2::text[], $3::text[]) AS u(kind, data, error)
)
DELETE FROM usage_dead_letter WHERE id < (
  SELECT min(id) FROM (SELECT id FROM usage_dead_letter ORDER BY id DESC LIMIT ${DEAD_LETTER_KEEP}) newest
)`;

const EPOCH = `timestamptz '1970-01-01 00:00:00+00'`;
const fromMs = (col: string) => `(${EPOCH} + ${col} * interval '1 millisecond')`;

/**
 * `date_bin` from the Unix epoch, so buckets are UTC whatever the session's time zone.
 *
 * @example
 * bin('1 hour', 'minute'); // date_bin(interval '1 hour', minute, timestamptz '1970-01-01 00:00:00+00')
 */
export const bin = (width: string, col: string) => `date_bin(interval '${width}', ${col}, ${EPOCH})`;

const SUMS = `sum(requests), sum(credits), sum(errors), sum(latency_ms_sum), max(latency_ms_max), sum(bytes_in), sum(bytes_out)`;
const ADD_ACCOUNT = `requests = t.requests + EXCLUDED.requests, credits = t.credits + EXCLUDED.credits,
    errors = t.errors + EXCLUDED.errors, latency_ms_sum = t.latency_ms_sum + EXCLUDED.latency_ms_sum,
    latency_ms_max = greatest(t.latency_ms_max, EXCLUDED.latency_ms_max),
    bytes_in = t.bytes_in + EXCLUDED.bytes_in, bytes_out = t.bytes_out + EXCLUDED.bytes_out`;
const ADD = `${ADD_ACCOUNT}, account_id = EXCLUDED.account_id`;
const COLS = `requests, credits, errors, latency_ms_sum, latency_ms_max, bytes_in, bytes_out`;

/**
 * One statement per flush: aggregates upserted (added) into the minute and hour tables, error
 * counts likewise, requests appended to the log. Rows are sorted so that concurrent writers
 * lock them in the same order. Parameters: see `writeParams` in createSqlUsageStore.
 *
 * @example
 * await query(WRITE_SQL, writeParams(batch));
 */
export const WRITE_SQL = `
WITH a AS (
  SELECT ${bin('1 minute', fromMs('ms'))} AS minute, key, account_id, network, method, ${COLS}
  FROM unnest($1::float8[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[],
              $8::bigint[], $9::float8[], $10::float8[], $11::bigint[], $12::bigint[])
    AS u(ms, key, account_id, network, method, ${COLS})
), am AS (
  INSERT INTO usage_minute AS t (minute, key, network, method, account_id, ${COLS})
  SELECT minute, key, network, method, max(account_id), ${SUMS}
  FROM a GROUP BY key, minute, network, method ORDER BY key, minute, network, method
  ON CONFLICT (key, minute, network, method) DO UPDATE SET ${ADD}
), ah AS (
  INSERT INTO usage_hour AS t (hour, key, network, method, account_id, ${COLS})
  SELECT ${bin('1 hour', 'minute')} AS h, key, network, method, max(account_id), ${SUMS}
  FROM a GROUP BY key, h, network, method ORDER BY key, h, network, method
  ON CONFLICT (key, hour, network, method) DO UPDATE SET ${ADD}
), aam AS (
  INSERT INTO usage_account_minute AS t (minute, account_id, network, method, ${COLS})
  SELECT minute, account_id, network, method, ${SUMS}
  FROM a GROUP BY account_id, minute, network, method ORDER BY account_id, minute, network, method
  ON CONFLICT (account_id, minute, network, method) DO UPDATE SET ${ADD_ACCOUNT}
), aah AS (
  INSERT INTO usage_account_hour AS t (hour, account_id, network, method, ${COLS})
  SELECT ${bin('1 hour', 'minute')} AS h, account_id, network, method, ${SUMS}
  FROM a GROUP BY account_id, h, network, method ORDER BY account_id, h, network, method
  ON CONFLICT (account_id, hour, network, method) DO UPDATE SET ${ADD_ACCOUNT}
), e AS (
  SELECT ${bin('1 minute', fromMs('ms'))} AS minute, key, account_id, network, status, error_code, count
  FROM unnest($13::float8[], $14::text[], $15::text[], $16::text[], $17::int[], $18::int[], $19::bigint[])
    AS u(ms, key, account_id, network, status, error_code, count)
), em AS (
  INSERT INTO usage_errors_minute AS t (minute, key, network, status, error_code, account_id, count)
  SELECT minute, key, network, status, error_code, max(account_id), sum(count)
  FROM e GROUP BY key, minute, network, status, error_code ORDER BY key, minute, network, status, error_code
  ON CONFLICT (key, minute, network, status, error_code)
  DO UPDATE SET count = t.count + EXCLUDED.count, account_id = EXCLUDED.account_id
), eh AS (
  INSERT INTO usage_errors_hour AS t (hour, key, network, status, error_code, account_id, count)
  SELECT ${bin('1 hour', 'minute')} AS h, key, network, status, error_code, max(account_id), sum(count)
  FROM e GROUP BY key, h, network, status, error_code ORDER BY key, h, network, status, error_code
  ON CONFLICT (key, hour, network, status, error_code)
  DO UPDATE SET count = t.count + EXCLUDED.count, account_id = EXCLUDED.account_id
), r AS (
  INSERT INTO usage_recent (key, account_id, request_id, at, network, method, transport, status, error_code,
                            refusal, latency_ms, credits, bytes_in, bytes_out, upstream, failover)
  SELECT key, account_id, request_id, ${fromMs('ms')}, network, method, transport, status, error_code,
         refusal, latency_ms, credits, bytes_in, bytes_out, upstream, failover
  FROM unnest($20::text[], $21::text[], $22::text[], $23::float8[], $24::text[], $25::text[], $26::text[],
              $27::int[], $28::int[], $29::text[], $30::float8[], $31::bigint[], $32::bigint[], $33::bigint[],
              $34::text[], $35::text[])
    AS u(key, account_id, request_id, ms, network, method, transport, status, error_code,
         refusal, latency_ms, credits, bytes_in, bytes_out, upstream, failover)
  ORDER BY ms
)
SELECT 1 AS done`;

/**
 * Keeps the newest `$2` requests of each key in `$1`. Gateways that serve the same key trim its
 * log at the same time: each locks the rows it deletes first and skips those another trim holds
 * (that trim deletes them), so two trims never wait on each other, and never deadlock.
 *
 * @example
 * await query(TRIM_RECENT_SQL, [['key1', 'key2'], 200]);
 */
export const TRIM_RECENT_SQL = `
DELETE FROM usage_recent WHERE id IN (
  SELECT id FROM usage_recent WHERE id IN (
    SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY key ORDER BY at DESC, id DESC) AS n
      FROM usage_recent WHERE key = ANY($1::text[])
    ) ranked WHERE n > $2
  )
  FOR UPDATE SKIP LOCKED
)`;

/** Parameters of WRITE_SQL, column by column. */
function writeParams(batch: UsageBatch): unknown[] {
  const { aggregates: a, errors: e, recent: r } = batch;
  const nullable = <T>(v: T | undefined) => (v === undefined ? null : v);
  return [
    a.map((x) => x.minute),
    a.map((x) => x.key),
    a.map((x) => x.accountId),
    a.map((x) => x.network),
    a.map((x) => x.method),
    a.map((x) => x.requests),
    a.map((x) => x.credits),
    a.map((x) => x.errors),
    a.map((x) => x.latencyMsSum),
    a.map((x) => x.latencyMsMax),
    a.map((x) => x.bytesIn),
    a.map((x) => x.bytesOut),
    e.map((x) => x.minute),
    e.map((x) => x.key),
    e.map((x) => x.accountId),
    e.map((x) => x.network),
    e.map((x) => x.status),
    e.map((x) => x.errorCode),
    e.map((x) => x.count),
    r.map((x) => x.key),
    r.map((x) => x.accountId),
    r.map((x) => x.requestId),
    r.map((x) => x.at),
    r.map((x) => x.network),
    r.map((x) => x.method),
    r.map((x) => x.transport),
    r.map((x) => x.status),
    r.map((x) => nullable(x.errorCode)),
    r.map((x) => nullable(x.refusal)),
    r.map((x) => x.latencyMs),
    r.map((x) => x.credits),
    r.map((x) => x.bytesIn),
    r.map((x) => x.bytesOut),
    r.map((x) => nullable(x.upstream)),
    r.map((x) => nullable(x.failover)),
  ];
}

const WIDTHS: Record<UsageBucket, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '1d': '1 day',
};

/**
 * The usage store's PostgreSQL dialect: a flush is one statement (`WRITE_SQL`, arrays unnested),
 * rows set aside one (`DEAD_LETTER_SQL`), the log's trim one (`TRIM_RECENT_SQL`); the schema is
 * created in one statement under an advisory lock, so that gateways starting together do not race.
 */
export const POSTGRES_USAGE_SQL: UsageDialect = {
  dialect: 'postgres',
  async applySchema(sql) {
    await sql.query(
      `DO $usage$ BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('nodegate_usage_schema'));
        ${USAGE_SCHEMA}
      END $usage$`,
    );
  },
  async write(sql, batch) {
    await sql.query(WRITE_SQL, writeParams(batch));
  },
  async setAside(sql, rows) {
    await sql.query(DEAD_LETTER_SQL, [rows.map((r) => r.kind), rows.map((r) => r.data), rows.map((r) => r.error)]);
  },
  async trimRecent(sql, keys, keep) {
    await sql.query(TRIM_RECENT_SQL, [keys, keep]);
  },
  param: (n) => `$${n}`,
  timeValue: (ms) => new Date(ms).toISOString(),
  timeParam: (n) => `$${n}::timestamptz`,
  bin: (bucket, col) => bin(WIDTHS[bucket], col),
};

/**
 * The usage store's statements for each dialect (PostgreSQL's here, the embedded SQLite's in
 * `usageSqliteSql.ts`).
 *
 * @example
 * const dialect = USAGE_SQL[sql.dialect];
 * await dialect.write(sql, cleanUsageBatch(batch));
 */
export const USAGE_SQL: Record<SqlDialect, UsageDialect> = { postgres: POSTGRES_USAGE_SQL, sqlite: SQLITE_USAGE_SQL };
