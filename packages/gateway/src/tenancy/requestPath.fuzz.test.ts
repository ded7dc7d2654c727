import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../families/eth/ethMethods.js';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { ipfsCommands } from '../ipfs/ipfsCommands.js';
import { INVALID_CALL_CREDITS } from '../pipeline/stages/chargeCredits.js';
import { type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin, createTestKey, type TestKey } from '../test-support/testKeys.js';
import { USAGE_TEXT_LIMITS } from '../usage/cleanUsageBatch.js';

// Property-based fuzzing of the request path (issue 20): arbitrary method names, params, ids
// and raw bodies over HTTP and WebSocket, arbitrary IPFS command names and arguments through
// /api/v0/, each from a key of its own account beside a second key making ordinary calls. The
// invariants, not examples: every request is answered in the JSON-RPC (or Kubo) shape and never
// with a 500; usage is still written afterwards (a flush succeeds, nothing set aside); nothing a
// client sent is stored unbounded or unclean (the usage tables read with SQL); the credits
// charged never fall below what was answered, and usage shows exactly what was charged.
//
// `npm test` runs a bounded number of cases; `npm run fuzz` runs many more
// (NODEGATE_FUZZ_RUNS, default 40 per property; NODEGATE_FUZZ_SEED replays a failure's seed;
// NODEGATE_FUZZ_BACKENDS=postgres,embedded chooses the usage databases, default postgres).

const RUNS = Number(process.env.NODEGATE_FUZZ_RUNS ?? 40);
const SEED = process.env.NODEGATE_FUZZ_SEED === undefined ? undefined : Number(process.env.NODEGATE_FUZZ_SEED);
const BACKENDS = (process.env.NODEGATE_FUZZ_BACKENDS ?? 'postgres').split(',').map((b) => b.trim());
const PG_URL = process.env.NODEGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROPERTY_TIMEOUT = 60_000 + RUNS * 500;
/** fast-check's parameters: the number of runs, and the seed to replay when one is given. */
const FUZZ = SEED === undefined ? { numRuns: RUNS } : { numRuns: RUNS, seed: SEED };
const PRINTABLE = /^[\x20-\x7e]*$/;

/** Every method name the usage tables may hold for the keys below. */
const BOUNDED = new Set([
  ...Object.keys(ethMethods),
  ...Object.keys(ipfsCommands),
  '(other)',
  '(dev)',
  '(invalid)',
  '(refused)',
  '(unknown)',
  'eth_subscription',
]);

// ---- generators -------------------------------------------------------------------------------

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  maxLength: 8,
});
const method = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...Object.keys(ethMethods)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'x\u0000',
      '',
      '__proto__',
      'constructor',
      'toString',
      'anvil_nodeInfo',
      'evm_snapshot',
      'anvil_madeUp',
      '(other)',
      '(invalid)',
      'eth_subscribe',
      'eth_unsubscribe',
    ),
  },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1000, maxLength: 4000 }) },
);
const json = fc.jsonValue({ maxDepth: 2 });
const params = fc.option(
  fc.oneof(fc.array(json, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }), json),
  { nil: undefined },
);
const id = fc.option(
  fc.oneof(fc.integer(), fc.string({ unit: 'binary', maxLength: 60 }), fc.constant(null), fc.double(), json),
  { nil: undefined },
);
const request = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: json }),
    id,
    method: fc.oneof({ weight: 9, arbitrary: method }, { weight: 1, arbitrary: json }),
    params,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);
/** A body: one request, a batch, any JSON, or any text at all. */
const body = fc.oneof(
  { weight: 4, arbitrary: request.map((r) => JSON.stringify(r)) },
  { weight: 2, arbitrary: fc.array(request, { maxLength: 5 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: json.map((j) => JSON.stringify(j)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

/** IPFS commands that read (or fail on garbage) without changing the node's configuration. */
const IPFS_KNOWN = [
  'cat',
  'ls',
  'version',
  'id',
  'block/stat',
  'block/get',
  'dag/get',
  'dag/stat',
  'dag/resolve',
  'object/stat',
  'object/get',
  'object/data',
  'object/links',
  'pin/ls',
  'pin/add',
  'pin/rm',
  'refs',
].filter((c) => Object.hasOwn(ipfsCommands, c));
const ipfsCommand = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...IPFS_KNOWN) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 300, maxLength: 2000 }) },
  { weight: 1, arbitrary: fc.constantFrom('no/such/command', 'cat/extra/segments', 'pin', 'api/v0/cat', '..') },
);
/** Arguments: any text, lone surrogates, or any bytes at all (invalid UTF-8 once percent-encoded). */
const ipfsArgs = fc.array(
  fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), loneSurrogates, fc.uint8Array({ maxLength: 40 })),
  { maxLength: 3 },
);

/** Percent-encodes every byte but the unreserved ones (as a client may: `encodeURIComponent` refuses lone surrogates). */
const pct = (v: string | Uint8Array) =>
  Array.from(typeof v === 'string' ? Buffer.from(v) : v, (b) =>
    /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
  ).join('');

// ---- checks -----------------------------------------------------------------------------------

/** One JSON-RPC answer object: `jsonrpc`, an `id`, and a result or an error with an integer code. */
function expectAnswer(a: unknown): { code: number | undefined } {
  expect(a).toBeTypeOf('object');
  const o = a as Record<string, unknown>;
  expect(o.jsonrpc).toBe('2.0');
  expect('id' in o).toBe(true);
  if ('error' in o) {
    const e = o.error as { code: unknown; message: unknown };
    expect(Number.isInteger(e.code)).toBe(true);
    expect(e.message).toBeTypeOf('string');
    return { code: e.code as number };
  }
  expect('result' in o).toBe(true);
  return { code: undefined };
}

/** Answers that were not a limit's refusal: each cost at least INVALID_CALL_CREDITS. */
const countAnswered = (answers: unknown[]) => answers.filter((a) => expectAnswer(a).code !== -32005).length;

describe.each(BACKENDS)('request path fuzzing (usage in %s)', (backend) => {
  const postgres = backend === 'postgres';
  const schema = `fuzz_${randomBytes(5).toString('hex')}`;
  let t: TestGateway;
  let fuzzer: TestKey & { account: string };
  let bystander: TestKey & { account: string };
  let sql: pg.Client | undefined;
  /** Answers (not limit refusals) the fuzzing key got: what the credits charged must cover. */
  let answered = 0;
  let bystanderCalls = 0;

  beforeAll(async () => {
    t = await startTestGateway({
      extra: {
        cache: { enabled: false },
        ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
        ...(postgres ? { database: { kind: 'postgres', url: PG_URL, schema } } : {}),
      },
    });
    const keyOf = async (name: string) => {
      // a plan whose limits a fuzzing run does not reach: every case is answered, not refused
      const account = await admin(t.gw, 'POST', '/accounts', { name, plan: 'custom' });
      return { ...(await createTestKey(t.gw, { accountId: account.id })), account: account.id as string };
    };
    fuzzer = await keyOf('fuzzer');
    bystander = await keyOf('bystander');
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

  const rpcUrl = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;
  const bystanderCall = async () => {
    const r = await fetch(rpcUrl(bystander.key), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    });
    expect(((await r.json()) as { result: string }).result).toBe('0x7a69');
    bystanderCalls++;
  };

  it(
    'HTTP: any body is answered in the JSON-RPC shape, never with a 500',
    async () => {
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const res = await fetch(rpcUrl(fuzzer.key), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
            signal: AbortSignal.timeout(20_000),
          });
          const reply = await res.text();
          expect([200, 204]).toContain(res.status);
          if (res.status === 204) expect(reply).toBe('');
          else {
            const parsed: unknown = JSON.parse(reply);
            const answers = Array.isArray(parsed) ? parsed : [parsed];
            expect(answers.length).toBeGreaterThan(0);
            answered += countAnswered(answers);
          }
          await bystanderCall();
        }),
        FUZZ,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'WebSocket: any message is answered in the JSON-RPC shape and the connection stays open',
    async () => {
      const ws = new WebSocket(`${t.gw.networks['eth-devnet']!.ws}/ws/v3/${fuzzer.key}`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      let closed: number | undefined;
      ws.on('close', (code) => {
        closed = code;
      });
      const frames: unknown[] = [];
      const waiting = new Map<string, () => void>();
      ws.on('message', (data) => {
        const parsed: unknown = JSON.parse(String(data));
        const sentinel = (parsed as { id?: unknown }).id;
        if (typeof sentinel === 'string' && waiting.has(sentinel)) {
          expect((parsed as { result?: unknown }).result).toBe('0x7a69');
          waiting.get(sentinel)!();
          return;
        }
        for (const a of Array.isArray(parsed) ? parsed : [parsed]) frames.push(a);
      });
      let n = 0;
      try {
        await fc.assert(
          fc.asyncProperty(body, async (text) => {
            ws.send(text);
            // a call after it is answered: the connection (and the process) still serve
            const sentinel = `sentinel-${n++}`;
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(() => reject(new Error(`no answer to ${sentinel}`)), 20_000);
              waiting.set(sentinel, () => {
                clearTimeout(timer);
                resolve();
              });
              ws.send(JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'eth_chainId', params: [] }));
            });
            expect(closed).toBeUndefined();
          }),
          FUZZ,
        );
      } finally {
        ws.close();
      }
      // every sentinel's call was charged and answered too
      answered += countAnswered(frames) + n;
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'IPFS: any command name and arguments through /api/v0/ are answered within the deadline, never with a gateway 500',
    async () => {
      await fc.assert(
        fc.asyncProperty(ipfsCommand, ipfsArgs, async (command, args) => {
          const path = command.split('/').map(pct).join('/');
          const query = args.map((a) => `arg=${pct(a)}`).join('&');
          const res = await fetch(`${t.gw.ipfs}/api/v0/${path}${query ? `?${query}` : ''}`, {
            method: 'POST',
            headers: { authorization: basicAuth(fuzzer.key, fuzzer.secret) },
            signal: AbortSignal.timeout(20_000),
          });
          const reply = await res.text();
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(res.status).toBeLessThan(600);
          // a path the edge refuses (400) is not a command; 401/403/429 are refusals
          if (![400, 401, 403, 429].includes(res.status)) answered++;
          if (res.status === 500) {
            // a 500 is the IPFS node's own answer to a command it failed (Kubo answers `invalid
            // cid` so), passed on in Kubo's shape; the gateway's own fault would say `internal error`
            const kubo = JSON.parse(reply) as { Message: unknown; Type: unknown };
            expect(kubo.Type).toBe('error');
            expect(kubo.Message).toBeTypeOf('string');
            expect(kubo.Message).not.toBe('internal error');
          }
          await bystanderCall();
        }),
        FUZZ,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it('afterwards: usage is written, bounded and clean; the credits charged cover what was answered and match usage', async () => {
    const health = await fetch(`${t.gw.url}/health`);
    expect(health.status).toBe(200);
    // usage events of IPFS answers are recorded when their connection closes: let them settle
    const range = () => `from=${Date.now() - 3_600_000}&to=${Date.now() + 60_000}`;
    const usedToday = async (k: { account: string }) =>
      (await admin(t.gw, 'GET', `/accounts/${k.account}/plan`)).usedToday as number;
    let charged = 0;
    let recorded = -1;
    for (let i = 0; i < 50 && recorded !== charged; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      await t.gw.flushUsage();
      charged = await usedToday(fuzzer);
      recorded = (await admin(t.gw, 'GET', `/usage?key=${fuzzer.key}&${range()}&bucket=1h`)).totals.credits;
    }
    expect(charged).toBeGreaterThanOrEqual(answered * INVALID_CALL_CREDITS);
    expect(recorded).toBe(charged);
    const usageHealth = ((await health.json()) as { usage: Record<string, unknown> }).usage;
    expect(usageHealth).toMatchObject({ status: 'ok', consecutiveFailures: 0 });
    const after = (await (await fetch(`${t.gw.url}/health`)).json()) as { usage: Record<string, unknown> };
    expect(after.usage).toMatchObject({ status: 'ok', consecutiveFailures: 0, setAsideRows: 0 });

    // the other tenant: every call recorded, nothing of the fuzzing key's in its rows
    const theirs = await admin(t.gw, 'GET', `/usage?key=${bystander.key}&${range()}&bucket=1h`);
    expect(theirs.totals.requests).toBe(bystanderCalls);
    expect(await usedToday(bystander)).toBe(bystanderCalls * ethMethods.eth_chainId.credits);

    // what the fuzzing key made: names from the tables or a bucket, printable and short
    const top = await admin(t.gw, 'GET', `/usage/top-methods?key=${fuzzer.key}&${range()}&limit=100`);
    for (const m of top) expect(BOUNDED.has(m.method)).toBe(true);
    const recent = await admin(t.gw, 'GET', `/keys/${fuzzer.key}/requests?limit=100`);
    for (const r of recent) {
      expect(BOUNDED.has(r.method)).toBe(true);
      for (const v of [r.requestId, r.network, r.transport, r.refusal ?? '', r.upstream ?? '']) {
        expect(v).toMatch(PRINTABLE);
        expect(v.length).toBeLessThanOrEqual(64);
      }
    }
    if (!sql) return;

    // every usage table, read with SQL
    const text = (table: string, columns: Record<string, number>) =>
      Object.entries(columns).map(async ([column, max]) => {
        const { rows } = await sql!.query<{ longest: number | null; unclean: string }>(
          `SELECT max(length(${column})) AS longest,
                  count(*) FILTER (WHERE ${column} !~ '^[ -~]*$') AS unclean FROM ${table}`,
        );
        expect(rows[0]!.longest ?? 0, `${table}.${column}`).toBeLessThanOrEqual(max);
        expect(Number(rows[0]!.unclean), `${table}.${column}`).toBe(0);
      });
    const L = USAGE_TEXT_LIMITS;
    await Promise.all([
      ...text('usage_minute', { key: L.key, account_id: L.accountId, network: L.network, method: L.method }),
      ...text('usage_hour', { key: L.key, account_id: L.accountId, network: L.network, method: L.method }),
      ...text('usage_account_minute', { account_id: L.accountId, network: L.network, method: L.method }),
      ...text('usage_account_hour', { account_id: L.accountId, network: L.network, method: L.method }),
      ...text('usage_errors_minute', { key: L.key, account_id: L.accountId, network: L.network }),
      ...text('usage_errors_hour', { key: L.key, account_id: L.accountId, network: L.network }),
      ...text('usage_recent', {
        key: L.key,
        account_id: L.accountId,
        request_id: L.requestId,
        network: L.network,
        method: L.method,
        transport: L.transport,
        "coalesce(refusal, '')": L.refusal,
        "coalesce(upstream, '')": L.upstream,
        "coalesce(failover, '')": L.failover,
      }),
    ]);
    for (const table of ['usage_minute', 'usage_hour', 'usage_recent']) {
      const { rows } = await sql.query<{ method: string }>(`SELECT DISTINCT method FROM ${table}`);
      for (const { method } of rows) expect(BOUNDED.has(method), `${table}: ${method}`).toBe(true);
    }
    // the rows a key can make per hour: at most one per (network, bounded name)
    const { rows } = await sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM usage_hour WHERE key = $1 GROUP BY hour ORDER BY n DESC LIMIT 1`,
      [fuzzer.key],
    );
    expect(Number(rows[0]?.n ?? 0)).toBeLessThanOrEqual(2 * BOUNDED.size);
    const recentRows = await sql.query<{ n: string }>('SELECT count(*) AS n FROM usage_recent WHERE key = $1', [
      fuzzer.key,
    ]);
    expect(Number(recentRows.rows[0]!.n)).toBeLessThanOrEqual(200);
    const dead = await sql.query<{ n: string }>('SELECT count(*) AS n FROM usage_dead_letter');
    expect(Number(dead.rows[0]!.n)).toBe(0);
  });
});
