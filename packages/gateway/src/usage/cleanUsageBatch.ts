import type { UsageEvent } from './UsageEvent.js';
import type { UsageAggregate, UsageBatch, UsageErrorCount } from './UsageStore.js';

/**
 * The longest each stored text may be, in characters. Every stored text is also printable
 * ASCII (`' '` to `'~'`): what the gateway itself names (keys, accounts, networks, upstreams,
 * the method tables' names and placeholders, refusal kinds, request ids) always fits, so these
 * bounds only ever change text that should not have reached storage.
 */
export const USAGE_TEXT_LIMITS = Object.freeze({
  key: 128,
  accountId: 128,
  network: 64,
  method: 64,
  transport: 16,
  refusal: 32,
  upstream: 64,
  requestId: 64,
  failover: 16,
});

const PRINTABLE = /^[\x20-\x7e]*$/;
const NOT_PRINTABLE = /[^\x20-\x7e]/g;
/** bigint columns: kept within the integers a JS number holds exactly. */
const MAX_BIG = Number.MAX_SAFE_INTEGER;
const MAX_INT4 = 2_147_483_647;

/**
 * `value` as stored text: characters outside printable ASCII (NUL, control characters, lone
 * surrogates, anything else) become `?`, and it is cut to `max` characters.
 */
function boundText(value: string, max: number): string {
  if (typeof value !== 'string') value = String(value);
  if (value.length <= max && PRINTABLE.test(value)) return value;
  const cut = value.length > max ? value.slice(0, max) : value;
  return cut.replace(NOT_PRINTABLE, '?');
}

const optionalText = (value: string | undefined, max: number) =>
  value === undefined ? undefined : boundText(value, max);

/** A finite integer within [min, max] (0 when not a finite number). */
function int(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return 0;
  const n = Math.round(value);
  return Math.max(min, Math.min(max, n));
}

/** A finite non-negative double (0 otherwise). */
const real = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

const big = (value: number) => int(value, 0, MAX_BIG);

function cleanAggregate(a: UsageAggregate): UsageAggregate {
  return {
    minute: a.minute,
    key: boundText(a.key, USAGE_TEXT_LIMITS.key),
    accountId: boundText(a.accountId, USAGE_TEXT_LIMITS.accountId),
    network: boundText(a.network, USAGE_TEXT_LIMITS.network),
    method: boundText(a.method, USAGE_TEXT_LIMITS.method),
    requests: big(a.requests),
    credits: big(a.credits),
    errors: big(a.errors),
    latencyMsSum: real(a.latencyMsSum),
    latencyMsMax: real(a.latencyMsMax),
    bytesIn: big(a.bytesIn),
    bytesOut: big(a.bytesOut),
  };
}

function cleanErrorCount(e: UsageErrorCount): UsageErrorCount {
  return {
    minute: e.minute,
    key: boundText(e.key, USAGE_TEXT_LIMITS.key),
    accountId: boundText(e.accountId, USAGE_TEXT_LIMITS.accountId),
    network: boundText(e.network, USAGE_TEXT_LIMITS.network),
    status: int(e.status, 0, 999),
    errorCode: e.errorCode === null ? null : int(e.errorCode, -MAX_INT4 - 1, MAX_INT4),
    count: big(e.count),
  };
}

function cleanEvent(r: UsageEvent): UsageEvent {
  return {
    key: boundText(r.key, USAGE_TEXT_LIMITS.key),
    accountId: boundText(r.accountId, USAGE_TEXT_LIMITS.accountId),
    network: boundText(r.network, USAGE_TEXT_LIMITS.network),
    method: boundText(r.method, USAGE_TEXT_LIMITS.method),
    transport: boundText(r.transport, USAGE_TEXT_LIMITS.transport) as UsageEvent['transport'],
    status: int(r.status, 0, 999),
    errorCode: r.errorCode === undefined ? undefined : int(r.errorCode, -MAX_INT4 - 1, MAX_INT4),
    refusal: optionalText(r.refusal, USAGE_TEXT_LIMITS.refusal),
    credits: big(r.credits),
    latencyMs: real(r.latencyMs),
    bytesIn: big(r.bytesIn),
    bytesOut: big(r.bytesOut),
    upstream: optionalText(r.upstream, USAGE_TEXT_LIMITS.upstream),
    failover: r.failover === 'partner' ? 'partner' : undefined,
    at: r.at,
    requestId: boundText(r.requestId, USAGE_TEXT_LIMITS.requestId),
  };
}

/**
 * The store boundary's own check, whatever the recorder did before it: every text of the batch
 * bounded in length and charset ({@link USAGE_TEXT_LIMITS}, {@link boundText}), every count a
 * finite integer its column holds (status and error codes within `integer`, sums within the
 * exact range of a JS number), every latency a finite non-negative number. Times are kept as
 * they are (the gateway's clock sets them; a row whose time the database refuses is set aside).
 *
 * @example
 * await query(WRITE_SQL, writeParams(cleanUsageBatch(batch)));
 */
export function cleanUsageBatch(batch: UsageBatch): UsageBatch {
  return {
    aggregates: batch.aggregates.map(cleanAggregate),
    errors: batch.errors.map(cleanErrorCount),
    recent: batch.recent.map(cleanEvent),
    keepRecentPerKey: batch.keepRecentPerKey,
  };
}
