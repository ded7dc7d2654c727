import { randomBytes } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../families/eth/ethMethods.js';
import { metricSum, parseMetrics } from '../test-support/metricSamples.js';
import { postJson, type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin, createTestKey, type TestKey } from '../test-support/testKeys.js';
import { USAGE_TEXT_LIMITS } from '../usage/cleanUsageBatch.js';

// Issue 20, item 1: one request with a hostile method name (a NUL, or thousands of
// characters) made every later usage flush fail for every tenant, and the failed batch was put
// back each time, so nothing was stored again. These tests run the attack through a real
// gateway on the embedded database (PGlite) and on PostgreSQL, with two accounts.

const PG_URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Method names no table knows, each a way to break a naive insert. */
const hostileMethods = () => [
  'x\u0000',
  // random base64 does not compress: an index entry of ~4 KB, over PostgreSQL's btree limit
  randomBytes(3000).toString('base64'),
  '\ud800lone surrogate',
  `eth_call${'\n'.repeat(3)}\u001b[31m`,
  `eth_${'é'.repeat(2000)}`,
];

/** Every method name the usage tables may hold: the eth table's names and the placeholders. */
const BOUNDED_METHODS = new Set([
  ...Object.keys(ethMethods),
  '(other)',
  '(dev)',
  '(invalid)',
  '(refused)',
  '(unknown)',
  'eth_subscription',
]);

const call = (method: string, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: [] });

const wsCall = async (url: string, bodies: string[]) => {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answers: unknown[] = [];
  const done = new Promise<void>((resolve) =>
    ws.on('message', (d) => {
      answers.push(JSON.parse(String(d)));
      if (answers.length === bodies.length) resolve();
    }),
  );
  for (const b of bodies) ws.send(b);
  await done;
  ws.close();
  return answers as Array<{ error?: { code: number } }>;
};

const backends = [
  { name: 'embedded (PGlite)', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

describe.each(backends)('usage recording against hostile method names: $name', ({ postgres }) => {
  let t: TestGateway;
  let attacker: TestKey;
  let victim: TestKey;
  let victimAccount: string;
  const schema = `usage_bounds_${randomBytes(5).toString('hex')}`;
  let sql: pg.Client | undefined;

  beforeAll(async () => {
    t = await startTestGateway({
      extra: {
        cache: { enabled: false },
        ...(postgres ? { database: { kind: 'postgres', url: PG_URL, schema } } : {}),
      },
    });
    const a = await admin(t.gw, 'POST', '/accounts', { name: 'attacker' });
    const b = await admin(t.gw, 'POST', '/accounts', { name: 'victim' });
    victimAccount = b.id;
    attacker = await createTestKey(t.gw, { accountId: a.id });
    victim = await createTestKey(t.gw, { accountId: b.id });
    if (postgres) {
      sql = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await sql.connect();
    }
  });
  afterAll(async () => {
    await t?.stop();
    if (sql) {
      await sql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await sql.end();
    }
  });

  // the SQL checks read the tables directly: PostgreSQL only (PGlite is the gateway's own, in
  // process; the store contract holds it to the same bounds and dead-letter behaviour)
  const onPostgres = (name: string, fn: () => Promise<void>) => {
    if (postgres) it(name, fn);
  };

  const url = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;
  const ws = (key: string) => `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${key}`;
  const range = () => `from=${Date.now() - 3_600_000}&to=${Date.now() + 60_000}`;
  const totalsOf = async (key: string) => (await admin(t.gw, 'GET', `/usage?key=${key}&${range()}&bucket=1h`)).totals;

  it('hostile names over HTTP, batches and WebSocket: every flush succeeds and every tenant is recorded', async () => {
    const hostile = hostileMethods();
    for (const m of hostile) {
      const r = await postJson(url(attacker.key), call(m));
      expect(r.status).toBe(200);
      expect(r.json.error.code).toBe(-32601);
    }
    const batch = await postJson(url(attacker.key), `[${hostile.map((m, i) => call(m, i)).join(',')}]`);
    expect(batch.json).toHaveLength(hostile.length);
    const overWs = await wsCall(
      ws(attacker.key),
      hostile.map((m, i) => call(m, i)),
    );
    expect(overWs.every((a) => a.error?.code === -32601)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await postJson(url(victim.key), call('eth_chainId'))).status).toBe(200);

    // the flush that failed for everyone before
    await t.gw.flushUsage();
    expect((await totalsOf(victim.key)).requests).toBe(3);
    expect((await totalsOf(attacker.key)).requests).toBe(3 * hostile.length);
    // and the next one too (nothing poisoned is left behind)
    expect((await postJson(url(victim.key), call('eth_blockNumber'))).status).toBe(200);
    await t.gw.flushUsage();
    expect((await totalsOf(victim.key)).requests).toBe(4);
    const account = await admin(t.gw, 'GET', `/usage?account=${victimAccount}&${range()}&bucket=1h`);
    expect(account.totals.requests).toBe(4);

    // what was stored is bounded: the unknown names are one bucket, in the aggregates and the log
    const top = await admin(t.gw, 'GET', `/usage/top-methods?key=${attacker.key}&${range()}&limit=100`);
    expect(top.map((m: { method: string }) => m.method)).toEqual(['(other)']);
    const recent = await admin(t.gw, 'GET', `/keys/${attacker.key}/requests?limit=100`);
    expect(recent).toHaveLength(3 * hostile.length);
    for (const r of recent) {
      expect(BOUNDED_METHODS.has(r.method)).toBe(true);
      expect(r.errorCode).toBe(-32601);
    }
  });

  onPostgres('nothing a client sent is stored unbounded or unclean (every usage table, read with SQL)', async () => {
    await t.gw.flushUsage();
    const tables = ['usage_minute', 'usage_hour', 'usage_account_minute', 'usage_account_hour', 'usage_recent'];
    for (const table of tables) {
      const { rows } = await sql!.query<{ longest: number | null; unclean: string }>(
        `SELECT max(length(method)) AS longest,
                count(*) FILTER (WHERE method !~ '^[ -~]*$') AS unclean FROM ${table}`,
      );
      expect(rows[0]!.longest).toBeLessThanOrEqual(USAGE_TEXT_LIMITS.method);
      expect(Number(rows[0]!.unclean)).toBe(0);
      const names = await sql!.query<{ method: string }>(`SELECT DISTINCT method FROM ${table}`);
      for (const { method } of names.rows) expect(BOUNDED_METHODS.has(method)).toBe(true);
    }
    const { rows } = await sql!.query<{ longest: number }>(
      `SELECT max(greatest(length(request_id), length(coalesce(refusal, '')), length(coalesce(upstream, '')),
                           length(network), length(transport))) AS longest FROM usage_recent`,
    );
    expect(rows[0]!.longest).toBeLessThanOrEqual(64);
  });

  onPostgres(
    'a row the database refuses is set aside (dead letter, counted) and the other tenants are still recorded',
    async () => {
      // the database refuses the attacker's request-log rows (as it refused a NUL before)
      await sql!.query(
        `ALTER TABLE usage_recent ADD CONSTRAINT refuse_attacker CHECK (key <> '${attacker.key}') NOT VALID`,
      );
      try {
        const before = parseMetrics((await fetchMetrics()).text);
        expect((await postJson(url(attacker.key), call('eth_chainId'))).status).toBe(200);
        expect((await postJson(url(victim.key), call('eth_chainId'))).status).toBe(200);
        const victimBefore = (await totalsOf(victim.key)).requests;
        await t.gw.flushUsage();
        expect((await totalsOf(victim.key)).requests).toBe(victimBefore + 1);
        const recent = await admin(t.gw, 'GET', `/keys/${victim.key}/requests?limit=1`);
        expect(recent[0].method).toBe('eth_chainId');
        const dead = await sql!.query<{ kind: string; data: string; error: string }>(
          'SELECT kind, data, error FROM usage_dead_letter ORDER BY id DESC LIMIT 1',
        );
        expect(dead.rows[0]).toMatchObject({ kind: 'recent' });
        expect(dead.rows[0]!.data).toContain(attacker.key);
        expect(dead.rows[0]!.error).toMatch(/refuse_attacker/);
        const after = parseMetrics((await fetchMetrics()).text);
        expect(
          metricSum(after, 'nodegate_usage_rows_set_aside_total') -
            metricSum(before, 'nodegate_usage_rows_set_aside_total'),
        ).toBe(1);
        const health = (await (await fetch(`${t.gw.url}/health`)).json()) as any;
        expect(health.usage.setAsideRows).toBeGreaterThanOrEqual(1);
      } finally {
        await sql!.query('ALTER TABLE usage_recent DROP CONSTRAINT refuse_attacker');
      }
    },
  );

  onPostgres(
    'a flush that keeps failing shows in /health and /metrics; once the database is back nothing is lost',
    async () => {
      const before = (await totalsOf(victim.key)).requests;
      await sql!.query('ALTER TABLE usage_minute RENAME TO usage_minute_away');
      try {
        for (let i = 0; i < 3; i++) {
          expect((await postJson(url(victim.key), call('eth_chainId'))).status).toBe(200);
          await expect(t.gw.flushUsage()).rejects.toThrow();
        }
        const res = await fetch(`${t.gw.url}/health`);
        expect(res.status).toBe(200); // the gateway still serves; the body says what is wrong
        const health = (await res.json()) as any;
        expect(health.status).toBe('degraded');
        expect(health.usage).toMatchObject({ status: 'failing' });
        expect(health.usage.consecutiveFailures).toBeGreaterThanOrEqual(3);
        expect(health.usage.pendingRows).toBeGreaterThan(0);
        const metrics = parseMetrics((await fetchMetrics()).text);
        expect(metricSum(metrics, 'nodegate_usage_flush_consecutive_failures')).toBeGreaterThanOrEqual(3);
        expect(metricSum(metrics, 'nodegate_usage_pending_rows')).toBeGreaterThan(0);
      } finally {
        await sql!.query('ALTER TABLE usage_minute_away RENAME TO usage_minute');
      }
      await t.gw.flushUsage();
      expect((await totalsOf(victim.key)).requests).toBe(before + 3);
      const health = (await (await fetch(`${t.gw.url}/health`)).json()) as any;
      expect(health.usage).toMatchObject({ status: 'ok', consecutiveFailures: 0 });
      const metrics = parseMetrics((await fetchMetrics()).text);
      expect(metricSum(metrics, 'nodegate_usage_flush_consecutive_failures')).toBe(0);
    },
  );

  const fetchMetrics = async () => {
    const res = await fetch(t.gw.metrics!.url, { headers: { authorization: `Bearer ${t.gw.admin.token}` } });
    return { status: res.status, text: await res.text() };
  };
});
