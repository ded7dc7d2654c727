import type { SqlQuery } from '../store/createSqlKeyStore.js';
import type { UsageBatch, UsageBucket, UsageScope, UsageStore, UsageTotals } from './UsageStore.js';
import { bin, TRIM_RECENT_SQL, WRITE_SQL } from './usageSql.js';

/** Options of {@link createSqlUsageStore}. */
export interface SqlUsageStoreOptions {
  /** Requests the log keeps per key when a batch does not say (default 200). */
  readonly keepRecentPerKey?: number;
}

const HOUR = 3_600_000;
const WIDTHS: Record<UsageBucket, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '1d': '1 day',
};
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

const num = (v: Num | undefined) => (v === null || v === undefined ? 0 : Number(v));
const iso = (v: Date | string) => new Date(v).toISOString();

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
  family: 'usage' | 'errors',
  scope: UsageScope,
  hours: boolean,
  cols: string,
  params: unknown[],
): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  let who = '';
  if (scope.key !== undefined) who += ` AND key = ${p(scope.key)}`;
  if (scope.accountId !== undefined) who += ` AND account_id = ${p(scope.accountId)}`;
  // usage of a whole account (or of everything) reads the per-account roll-ups
  const perAccount = family === 'usage' && scope.key === undefined;
  const minuteTable = perAccount ? 'usage_account_minute' : family === 'usage' ? 'usage_minute' : 'usage_errors_minute';
  const hourTable = perAccount ? 'usage_account_hour' : family === 'usage' ? 'usage_hour' : 'usage_errors_hour';
  const at = (ms: number) => `${p(new Date(ms).toISOString())}::timestamptz`;
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

/**
 * The usage store over any SQL connection speaking PostgreSQL's dialect (PGlite's `db.query`,
 * pg's `pool.query`). The tables must exist (`USAGE_SCHEMA`). Writes add to what is stored, so
 * several gateways may write the same minute. Queries cover `[from, to)` at minute resolution
 * (a minute counts when its start lies in the range).
 *
 * @example
 * const store = createSqlUsageStore((sql, params) => pool.query(sql, params), () => pool.end());
 * await store.write({ aggregates, errors: [], recent: [] });
 * const points = await store.series({ accountId, from, to }, '1h', { byNetwork: true });
 */
export function createSqlUsageStore(
  query: SqlQuery,
  close: () => Promise<void> = async () => {},
  options: SqlUsageStoreOptions = {},
): UsageStore {
  const keepDefault = options.keepRecentPerKey ?? 200;
  return {
    async write(batch) {
      if (batch.aggregates.length + batch.errors.length + batch.recent.length === 0) return;
      await query(WRITE_SQL, writeParams(batch));
      if (batch.recent.length > 0) {
        const keys = [...new Set(batch.recent.map((r) => r.key))];
        await query(TRIM_RECENT_SQL, [keys, Math.max(0, batch.keepRecentPerKey ?? keepDefault)]);
      }
    },

    async series(scope, bucket, options = {}) {
      const params: unknown[] = [];
      const from = source('usage', scope, bucket === '1h' || bucket === '1d', `network, ${VALUE_COLS}`, params);
      const group = options.byNetwork === true ? '1, 2' : '1';
      const sql = `SELECT ${bin(WIDTHS[bucket], 't')} AS at${options.byNetwork === true ? ', network' : ''}, ${TOTALS}
        FROM ${from} GROUP BY ${group} ORDER BY ${group}`;
      const rows = (await query<TotalsRow & { at: Date | string; network?: string }>(sql, params)).rows;
      return rows.map((r) =>
        r.network === undefined
          ? { at: iso(r.at), ...toTotals(r) }
          : { at: iso(r.at), network: r.network, ...toTotals(r) },
      );
    },

    async totals(scope) {
      const params: unknown[] = [];
      const sql = `SELECT ${TOTALS} FROM ${source('usage', scope, true, VALUE_COLS, params)}`;
      return toTotals((await query<TotalsRow>(sql, params)).rows[0]);
    },

    async topMethods(scope, limit) {
      const params: unknown[] = [];
      const from = source('usage', scope, true, `network, method, ${VALUE_COLS}`, params);
      params.push(limit);
      const sql = `SELECT method, network, ${TOTALS} FROM ${from}
        GROUP BY method, network ORDER BY requests DESC, method, network LIMIT $${params.length}`;
      const rows = (await query<TotalsRow & { method: string; network: string }>(sql, params)).rows;
      return rows.map((r) => ({ method: r.method, network: r.network, ...toTotals(r) }));
    },

    async errorsByStatus(scope) {
      const params: unknown[] = [];
      const from = source('errors', scope, true, 'status, error_code, count', params);
      const sql = `SELECT status, error_code, sum(count) AS count FROM ${from}
        GROUP BY status, error_code ORDER BY count DESC, status, error_code NULLS FIRST`;
      const rows = (await query<{ status: number; error_code: number | null; count: Num }>(sql, params)).rows;
      return rows.map((r) => ({ status: Number(r.status), errorCode: r.error_code, count: num(r.count) }));
    },

    async recentRequests(key, options) {
      const params: unknown[] = [key];
      let where = 'key = $1';
      if (options.method !== undefined) {
        params.push(options.method);
        where += ` AND method = $${params.length}`;
      }
      if (options.status !== undefined) {
        params.push(options.status);
        where += ` AND status = $${params.length}`;
      }
      params.push(Math.max(0, options.limit));
      const sql = `SELECT request_id, at, key, network, method, transport, status, error_code, refusal,
          latency_ms, credits, upstream, failover
        FROM usage_recent WHERE ${where} ORDER BY at DESC, id DESC LIMIT $${params.length}`;
      const rows = (
        await query<{
          request_id: string;
          at: Date | string;
          key: string;
          network: string;
          method: string;
          transport: string;
          status: number;
          error_code: number | null;
          refusal: string | null;
          latency_ms: number;
          credits: Num;
          upstream: string | null;
          failover: string | null;
        }>(sql, params)
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
        upstream: r.upstream,
        failover: r.failover === 'partner' ? 'partner' : null,
      }));
    },

    close,
  };
}
