// npm run bench -- usage [--days N] [--keys N]
// The usage queries the dashboard makes, over 30 days of per-minute data for one account of 100
// keys in PostgreSQL, each timed (median of 7) against a same-run baseline: the naive query
// that sums the per-minute rows of the account's keys without the roll-up tables.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgresUsageStore } from '../packages/gateway/dist/usage/openPostgresUsageStore.js';
import type { UsageBucket, UsageScope } from '../packages/gateway/dist/usage/UsageStore.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const days = arg('days', 30);
const keys = arg('keys', 100);
const URL_ = 'postgres://postgres@127.0.0.1:5432/test';
const schema = `usage_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

async function median(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  await fn(); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

async function main() {
  const store = await openPostgresUsageStore(URL_, { schema });
  const client = new pg.Client({ connectionString: URL_, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const end = new Date();
    end.setUTCSeconds(0, 0);
    const start = new Date(end.getTime() - days * 86_400_000);
    const minutes = days * 1440;
    process.stdout.write(
      `seeding ${keys} keys x ${minutes} minutes (${(keys * minutes).toLocaleString()} per-minute rows) into ${schema}…\n`,
    );
    const t0 = performance.now();
    const seed = (table: string, per: 'key' | 'account', unit: 'minute' | 'hour') => {
      const step = unit === 'minute' ? '1 minute' : '1 hour';
      const n = unit === 'minute' ? 1 : 60;
      const who =
        per === 'key'
          ? `'k' || lpad(k::text, 3, '0'), 'eth-devnet', 'eth_call', 'acct'`
          : `'acct', 'eth-devnet', 'eth_call'`;
      const keysSeries = per === 'key' ? `generate_series(1, ${keys}) AS k,` : '';
      const mult = per === 'key' ? 1 : keys;
      return client.query(
        `INSERT INTO ${table} SELECT t, ${who}, ${2 * n * mult}, ${160 * n * mult}, 0, ${n * mult}::float8, 3.0, ${100 * n * mult}, ${200 * n * mult}
         FROM ${keysSeries} generate_series($1::timestamptz, $2::timestamptz - interval '${step}', interval '${step}') AS t`,
        [start.toISOString(), end.toISOString()],
      );
    };
    await seed('usage_minute', 'key', 'minute');
    process.stdout.write(`  per-key minutes in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    await seed('usage_hour', 'key', 'hour');
    await seed('usage_account_minute', 'account', 'minute');
    await seed('usage_account_hour', 'account', 'hour');
    await client.query('ANALYZE');
    process.stdout.write(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s\n\n`);

    const to = end.getTime();
    const naive = await median(() =>
      client.query(
        `SELECT sum(requests) FROM usage_minute WHERE account_id = 'acct' AND minute >= $1 AND minute < $2`,
        [start.toISOString(), end.toISOString()],
      ),
    );
    const rows: Array<[string, number]> = [];
    const account = (spanMs: number): UsageScope => ({ accountId: 'acct', from: to - spanMs, to });
    const oneKey = (spanMs: number): UsageScope => ({ key: 'k001', from: to - spanMs, to });
    const dashboardRanges: Array<[string, number, UsageBucket]> = [
      ['15 min', 15 * 60_000, '1m'],
      ['1 h', 3_600_000, '1m'],
      ['24 h', 86_400_000, '15m'],
      ['7 d', 7 * 86_400_000, '1h'],
      [`${days} d`, days * 86_400_000, '1d'],
    ];
    for (const [label, span, bucket] of dashboardRanges) {
      rows.push([`account series ${label} (${bucket})`, await median(() => store.series(account(span), bucket))]);
    }
    const month = days * 86_400_000;
    rows.push([
      `account series ${days} d by network (1h)`,
      await median(() => store.series(account(month), '1h', { byNetwork: true })),
    ]);
    rows.push([`account totals ${days} d`, await median(() => store.totals(account(month)))]);
    rows.push([`account top methods ${days} d`, await median(() => store.topMethods(account(month), 10))]);
    rows.push([`account errors by status ${days} d`, await median(() => store.errorsByStatus(account(month)))]);
    rows.push([`key series ${days} d (1d)`, await median(() => store.series(oneKey(month), '1d'))]);
    rows.push([`key series 7 d (1h)`, await median(() => store.series(oneKey(7 * 86_400_000), '1h'))]);

    console.log(`PostgreSQL, ${keys} keys of one account, ${days} days of per-minute usage (median of 7)`);
    console.log(`baseline: naive sum over the per-minute rows of the account's keys: ${naive.toFixed(1)} ms\n`);
    console.log('query                                        ms     vs baseline   goal < 200 ms');
    for (const [label, ms] of rows) {
      console.log(
        `${label.padEnd(42)} ${ms.toFixed(1).padStart(7)}   ${(ms / naive).toFixed(3).padStart(8)}      ${ms < 200 ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await client.end();
    await store.close();
  }
}

await main();
