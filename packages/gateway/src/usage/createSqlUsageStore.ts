import type { SqlQuery } from '../store/createSqlKeyStore.js';
import type { SqlConnection } from '../store/SqlConnection.js';
import { toSqlConnection } from '../store/toSqlConnection.js';
import { cleanUsageBatch } from './cleanUsageBatch.js';
import type { DeadLetterRow, UsageDialect } from './UsageDialect.js';
import type { UsageBatch, UsageScope, UsageStore, UsageTotals } from './UsageStore.js';
import { UsageWriteError } from './UsageWriteError.js';
import { splitUsageBatch } from './splitUsageBatch.js';
import { USAGE_SQL } from './usageSql.js';
import { type RefusedUsageRow, writeSettingAside } from './writeSettingAside.js';

/**
 * Rows written per statement (PostgreSQL) or transaction (SQLite) at most: a larger flush is
 * written part by part, each part all or nothing, so that the gateway's thread never prepares
 * more than this many rows for the database at once.
 */
export const USAGE_ROWS_PER_WRITE = 1_000;

/** Options of {@link createSqlUsageStore}. */
export interface SqlUsageStoreOptions {
  /** Requests the log keeps per key when a batch does not say (default 200). */
  readonly keepRecentPerKey?: number;
}

const HOUR = 3_600_000;
const VALUE_COLS = 'requests, credits, errors, latency_ms_sum, latency_ms_max, bytes_in, bytes_out';
const TOTALS = `sum(requests) AS requests, sum(credits) AS credits, sum(errors) AS errors,
  sum(latency_ms_sum) AS latency_sum, max(latency_ms_max) AS latency_max,
  sum(bytes_in) AS bytes_in, sum(bytes_out) AS bytes_out`;

type Num = number | string | bigint | null;
interface TotalsRow {
  requests: Num;
  credits: Num;
  errors: Num;
  latency_sum: Num;
  latency_max: Num;
  bytes_in: Num;
  bytes_out: Num;
}

/**
 * Whether the database refused a write for what it holds rather than for being away:
 * PostgreSQL's classes 22 (data exception: bad encoding, out of range), 23 (integrity
 * constraint) and 54 (program limit exceeded: an index row too large). The embedded SQLite's
 * refusals come with the same codes (`openSqliteEngine`: a CHECK is 23514, a value of the wrong
 * type for its STRICT column 22P02, a row too big 54000).
 */
const isRowFault = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(?:22|23|54)/.test(code);
};

const NOT_PRINTABLE = /[^\x20-\x7e]/g;
const EMPTY: UsageBatch = Object.freeze({ aggregates: [], errors: [], recent: [] });

/** Rows set aside: the rows as JSON (2,000 characters at most), the reasons (500). */
const deadLetterRows = (refused: readonly RefusedUsageRow[]): DeadLetterRow[] =>
  refused.map((r) => ({
    kind: r.row.kind,
    data: JSON.stringify(r.row.row).slice(0, 2000),
    error: reasonOf(r.error),
  }));
const reasonOf = (err: unknown) =>
  String((err as Error | null)?.message ?? err)
    .replace(NOT_PRINTABLE, '?')
    .slice(0, 500);

const num = (v: Num | undefined) => (v === null || v === undefined ? 0 : Number(v));
/** A stored time (PostgreSQL: a Date; SQLite: epoch ms) as ISO text. */
const iso = (v: Date | string | number) => new Date(v).toISOString();

function toTotals(r: TotalsRow | undefined): UsageTotals {
  const requests = num(r?.requests);
  return {
    requests,
    credits: num(r?.credits),
    errors: num(r?.errors),
    latencyMsAvg: requests === 0 ? 0 : num(r?.latency_sum) / requests,
    latencyMsMax: num(r?.latency_max),
    bytesIn: num(r?.bytes_in),
    bytesOut: num(r?.bytes_out),
  };
}

/**
 * The rows a query reads, as a subquery `s` with the time column `t`: the hour table for the
 * whole hours inside `[from, to)` when `hours` (any bucket of an hour or more, and unbucketed
 * sums), the minute table for the rest; the per-account tables when no key is given. Pushes
 * its parameters onto `params`.
 */
function source(
  d: UsageDialect,
  family: 'usage' | 'errors',
  scope: UsageScope,
  hours: boolean,
  cols: string,
  params: unknown[],
): string {
  const p = (v: unknown) => {
    params.push(v);
    return d.param(params.length);
  };
  let who = '';
  if (scope.key !== undefined) who += ` AND key = ${p(scope.key)}`;
  if (scope.accountId !== undefined) who += ` AND account_id = ${p(scope.accountId)}`;
  // usage of a whole account (or of everything) reads the per-account roll-ups
  const perAccount = family === 'usage' && scope.key === undefined;
  const minuteTable = perAccount ? 'usage_account_minute' : family === 'usage' ? 'usage_minute' : 'usage_errors_minute';
  const hourTable = perAccount ? 'usage_account_hour' : family === 'usage' ? 'usage_hour' : 'usage_errors_hour';
  const at = (ms: number) => {
    params.push(d.timeValue(ms));
    return d.timeParam(params.length);
  };
  const minutes = (from: number, to: number) =>
    `SELECT minute AS t, ${cols} FROM ${minuteTable} WHERE minute >= ${at(from)} AND minute < ${at(to)}${who}`;
  const { from, to } = scope;
  const hourFrom = Math.ceil(from / HOUR) * HOUR;
  const hourTo = Math.floor(to / HOUR) * HOUR;
  if (!hours || hourFrom >= hourTo) return `(${minutes(from, to)}) s`;
  const parts = [
    `SELECT hour AS t, ${cols} FROM ${hourTable} WHERE hour >= ${at(hourFrom)} AND hour < ${at(hourTo)}${who}`,
  ];
  if (from < hourFrom) parts.push(minutes(from, hourFrom));
  if (hourTo < to) parts.push(minutes(hourTo, to));
  return `(${parts.join(' UNION ALL ')}) s`;
}

/**
 * The usage store over a SQL connection, in its dialect (`USAGE_SQL`: PostgreSQL's, or the
 * embedded SQLite's; a bare query function speaks PostgreSQL's). The tables must exist
 * (`openSqlUsageStore` creates them). Writes add to what is stored, so several gateways may write
 * the same minute. Queries cover `[from, to)` at minute resolution (a minute counts when its start
 * lies in the range).
 *
 * @example
 * const store = createSqlUsageStore((sql, params) => pool.query(sql, params), () => pool.end());
 * await store.write({ aggregates, errors: [], recent: [] });
 * const points = await store.series({ accountId, from, to }, '1h', { byNetwork: true });
 */
export function createSqlUsageStore(
  db: SqlConnection | SqlQuery,
  close: () => Promise<void> = async () => {},
  options: SqlUsageStoreOptions = {},
): UsageStore {
  const sql = toSqlConnection(db);
  const { query } = sql;
  const d = USAGE_SQL[sql.dialect];
  const keepDefault = options.keepRecentPerKey ?? 200;
  return {
    async write(batch) {
      if (batch.aggregates.length + batch.errors.length + batch.recent.length === 0) return { setAside: 0 };
      const parts = splitUsageBatch(batch, USAGE_ROWS_PER_WRITE);
      const refused: RefusedUsageRow[] = [];
      const keys = new Set<string>();
      for (let i = 0; i < parts.length; i++) {
        const clean = cleanUsageBatch(parts[i]!);
        for (const r of clean.recent) keys.add(r.key);
        try {
          refused.push(
            ...(await writeSettingAside(
              clean,
              (part) => d.write(sql, part),
              isRowFault,
              (rows) => d.setAside(sql, deadLetterRows(rows)),
            )),
          );
        } catch (err) {
          // the parts before are stored; this one's unwritten rows and the parts after are not
          const rest = [err instanceof UsageWriteError ? err.unwritten : parts[i]!, ...parts.slice(i + 1)];
          throw new UsageWriteError(
            {
              aggregates: rest.flatMap((p) => p.aggregates),
              errors: rest.flatMap((p) => p.errors),
              recent: rest.flatMap((p) => p.recent),
              keepRecentPerKey: batch.keepRecentPerKey,
            },
            err instanceof UsageWriteError ? err.cause : err,
          );
        }
      }
      if (keys.size > 0) {
        try {
          await d.trimRecent(sql, [...keys], Math.max(0, batch.keepRecentPerKey ?? keepDefault));
        } catch (err) {
          // the batch is stored: nothing to write again (the next write trims the log)
          throw new UsageWriteError(EMPTY, err);
        }
      }
      return refused.length === 0
        ? { setAside: 0 }
        : { setAside: refused.length, setAsideReason: reasonOf(refused[0]!.error) };
    },

    async deadLetters(limit) {
      const rows = (
        await query<{ at: Date | string | number; kind: string; data: string; error: string }>(
          `SELECT at, kind, data, error FROM usage_dead_letter ORDER BY id DESC LIMIT ${d.param(1)}`,
          [Math.max(0, limit)],
        )
      ).rows;
      return rows.map((r) => ({
        at: iso(r.at),
        kind: r.kind as 'aggregate' | 'error' | 'recent',
        data: r.data,
        error: r.error,
      }));
    },

    async series(scope, bucket, options = {}) {
      const params: unknown[] = [];
      const from = source(d, 'usage', scope, bucket === '1h' || bucket === '1d', `network, ${VALUE_COLS}`, params);
      const group = options.byNetwork === true ? '1, 2' : '1';
      const text = `SELECT ${d.bin(bucket, 't')} AS at${options.byNetwork === true ? ', network' : ''}, ${TOTALS}
        FROM ${from} GROUP BY ${group} ORDER BY ${group}`;
      const rows = (await query<TotalsRow & { at: Date | string | number; network?: string }>(text, params)).rows;
      return rows.map((r) =>
        r.network === undefined
          ? { at: iso(r.at), ...toTotals(r) }
          : { at: iso(r.at), network: r.network, ...toTotals(r) },
      );
    },

    async totals(scope) {
      const params: unknown[] = [];
      const text = `SELECT ${TOTALS} FROM ${source(d, 'usage', scope, true, VALUE_COLS, params)}`;
      return toTotals((await query<TotalsRow>(text, params)).rows[0]);
    },

    async topMethods(scope, limit) {
      const params: unknown[] = [];
      const from = source(d, 'usage', scope, true, `network, method, ${VALUE_COLS}`, params);
      params.push(limit);
      const text = `SELECT method, network, ${TOTALS} FROM ${from}
        GROUP BY method, network ORDER BY requests DESC, method, network LIMIT ${d.param(params.length)}`;
      const rows = (await query<TotalsRow & { method: string; network: string }>(text, params)).rows;
      return rows.map((r) => ({ method: r.method, network: r.network, ...toTotals(r) }));
    },

    async errorsByStatus(scope) {
      const params: unknown[] = [];
      const from = source(d, 'errors', scope, true, 'status, error_code, count', params);
      const text = `SELECT status, error_code, sum(count) AS count FROM ${from}
        GROUP BY status, error_code ORDER BY count DESC, status, error_code NULLS FIRST`;
      const rows = (await query<{ status: number; error_code: number | null; count: Num }>(text, params)).rows;
      return rows.map((r) => ({ status: Number(r.status), errorCode: r.error_code, count: num(r.count) }));
    },

    async recentRequests(key, options) {
      const params: unknown[] = [key];
      let where = `key = ${d.param(1)}`;
      if (options.method !== undefined) {
        params.push(options.method);
        where += ` AND method = ${d.param(params.length)}`;
      }
      if (options.status !== undefined) {
        params.push(options.status);
        where += ` AND status = ${d.param(params.length)}`;
      }
      if (options.requestId !== undefined) {
        params.push(options.requestId);
        where += ` AND request_id = ${d.param(params.length)}`;
      }
      params.push(Math.max(0, options.limit));
      const text = `SELECT request_id, at, key, network, method, transport, status, error_code, refusal,
          latency_ms, credits, bytes_in, bytes_out, upstream, failover
        FROM usage_recent WHERE ${where} ORDER BY at DESC, id DESC LIMIT ${d.param(params.length)}`;
      const rows = (
        await query<{
          request_id: string;
          at: Date | string | number;
          key: string;
          network: string;
          method: string;
          transport: string;
          status: number;
          error_code: number | null;
          refusal: string | null;
          latency_ms: number;
          credits: Num;
          bytes_in: Num;
          bytes_out: Num;
          upstream: string | null;
          failover: string | null;
        }>(text, params)
      ).rows;
      return rows.map((r) => ({
        requestId: r.request_id,
        at: iso(r.at),
        key: r.key,
        network: r.network,
        method: r.method,
        transport: r.transport,
        status: Number(r.status),
        errorCode: r.error_code,
        refusal: r.refusal,
        latencyMs: Number(r.latency_ms),
        credits: num(r.credits),
        bytesIn: num(r.bytes_in),
        bytesOut: num(r.bytes_out),
        upstream: r.upstream,
        failover: r.failover === 'partner' ? 'partner' : null,
      }));
    },

    close,
  };
}
