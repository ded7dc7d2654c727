import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Agent, Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { parseMetrics, metricSum } from '../test-support/metricSamples.js';
import { openWsClient, type WsTestClient } from '../test-support/openWsClient.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { rpc } from '../test-support/startTestGateway.js';
import { until } from '../test-support/until.js';

// Issue 22, item 5: `nodegate start --workers 2` (the built CLI, a primary and two worker
// processes on one port) keeps the guarantees of two instances (main.scaleOut.serial.test.ts):
// limits across workers, usage adding up, key changes reaching every worker within a second, one
// upstream subscription per filter; and the primary restarts a dead worker and stops them all.
// Which worker answers is known: each pinned connection (one keep-alive socket) asks /health.

const PG = 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = 'redis://127.0.0.1:6379';
const schema = `cluster_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const prefix = `nodegate-test:${randomUUID()}:`;
const run = promisify(execFile);
const cost = ethMethods.eth_chainId.credits;
const chainId = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';

let anvil: EmbeddedProcess;
let counter: SubscribeCounter;
let gw: SpawnedGateway;
const pools: Pool[] = [];
const clients: WsTestClient[] = [];

beforeAll(async () => {
  anvil = await startAnvil();
  counter = await countSubscribes(anvil.ws!);
  gw = await spawnGateway({
    workers: 2,
    devKey: true,
    database: { kind: 'postgres', url: PG, schema },
    redis: { url: REDIS, prefix },
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        dev: true,
        upstreams: [{ name: 'anvil', http: anvil.http, ws: counter.url }],
      },
    ],
  });
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const p of pools) await p.close().catch(() => {});
  await gw?.stop();
  await counter?.close();
  await anvil?.stop();
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
  const redis = new Redis(REDIS);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** One keep-alive connection to the gateway, and the worker it landed on. */
interface Pinned {
  readonly worker: number;
  request(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: any }>;
}

async function openPinned(): Promise<Pinned> {
  const pool = new Pool(gw.ready.url, { connections: 1, pipelining: 1, keepAliveTimeout: 600_000 });
  pools.push(pool);
  const request: Pinned['request'] = async (method, path, body, headers = {}) => {
    const res = await pool.request({
      method: method as 'GET',
      path,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
  };
  const health = await request('GET', '/health');
  return { worker: health.json.worker, request };
}

/** A connection to each worker: opens connections until both workers have one. */
async function pinBoth(): Promise<[Pinned, Pinned]> {
  const found = new Map<number, Pinned>();
  for (let i = 0; i < 40 && found.size < 2; i++) {
    const p = await openPinned();
    if (!found.has(p.worker)) found.set(p.worker, p);
  }
  const one = found.get(1);
  const two = found.get(2);
  if (!one || !two) throw new Error(`workers reached: ${[...found.keys()].join(', ')}`);
  return [one, two];
}

/** The connection still reaches the worker it was pinned to (the test's premise held). */
async function stillOn(p: Pinned) {
  expect((await p.request('GET', '/health')).json.worker).toBe(p.worker);
}

const rpcPath = (key: string) => `/eth-devnet/v3/${key}`;
const adminHeaders = () => ({ authorization: `Bearer ${gw.ready.admin.token}` });
const adminPath = (path: string) => `${new URL(gw.ready.admin.url).pathname}${path}`;

async function adminOn(p: Pinned, method: string, path: string, body?: unknown): Promise<any> {
  const r = await p.request(
    method,
    adminPath(path),
    body === undefined ? undefined : JSON.stringify(body),
    adminHeaders(),
  );
  if (r.status >= 300) throw new Error(`admin ${method} ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

async function createKey(p: Pinned, settings?: Record<string, unknown>): Promise<string> {
  const created = await adminOn(p, 'POST', '/accounts/operator/keys', { name: 'cluster' });
  if (settings) await adminOn(p, 'PATCH', `/keys/${created.key}`, { settings });
  return created.key as string;
}

async function scrape() {
  const res = await fetch(`${gw.ready.url}/metrics`, { headers: adminHeaders() });
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

async function childPids(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('nodegate start --workers 2 on PostgreSQL and Redis', () => {
  it('starts a primary and two workers on one port; /health names the worker that answers', async () => {
    expect(gw.ready).toMatchObject({ workers: 2, pid: gw.child.pid });
    // the primary's children are the two workers (the upstream is the test's anvil)
    expect(await childPids(gw.child.pid!)).toHaveLength(2);
    const [one, two] = await pinBoth();
    expect([one.worker, two.worker]).toEqual([1, 2]);
    const answered = await one.request('POST', rpcPath(gw.ready.devKey!.key), chainId);
    expect(answered.json.result).toBe('0x7a69');
  });

  it('a daily credit limit holds across workers: 16 calls alternating between them, exactly the 10 allowed answered', async () => {
    const [one, two] = await pinBoth();
    const key = await createKey(one, { creditsPerDay: 10 * cost });
    const served = { 1: 0, 2: 0 } as Record<number, number>;
    let refused = 0;
    // (a key held over its limits gets each refusal after a pause of up to 1 s: few calls past it)
    for (let i = 0; i < 16; i++) {
      const p = i % 2 === 0 ? one : two;
      const r = await p.request('POST', rpcPath(key), chainId);
      if (r.status === 200 && r.json.result === '0x7a69') served[p.worker]! += 1;
      else {
        expect(r.json.error).toMatchObject({ code: -32005, message: 'daily credit limit exceeded' });
        refused++;
      }
    }
    // how the 10 fall between the workers depends on the credits each leased; the total does not
    expect(served[1]! + served[2]!).toBe(10);
    expect(served[1]).toBeGreaterThan(0);
    expect(served[2]).toBeGreaterThan(0);
    expect(refused).toBe(6);
    await stillOn(one);
    await stillOn(two);
  });

  it('a per-second limit holds across workers: 250 req/s offered on 32 connections, 100 credits/s allowed, accepted within 10%', async () => {
    const allowed = 100;
    const [one] = await pinBoth();
    const key = await createKey(one, { creditsPerSecond: allowed });
    const before = await scrape();
    const dispatcher = new Agent({ connections: 32 });
    const origin = gw.ready.url;
    const path = rpcPath(key);
    // when each accepted request was sent (the client's own lag on a busy machine delays the
    // answers it reads, in bursts; a send time does not drift with it)
    const accepted: number[] = [];
    const inflight: Array<Promise<unknown>> = [];
    const started = Date.now();
    // 250 requests a second for 7 s (5 every 20 ms), spread by the cluster over both workers
    for (let tick = 0; tick < 350; tick++) {
      const wait = started + tick * 20 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      for (let i = 0; i < 5; i++) {
        const sentAt = Date.now();
        inflight.push(
          dispatcher
            .request({ origin, path, method: 'POST', headers: { 'content-type': 'application/json' }, body: chainId })
            .then(async (res) => {
              await res.body.dump();
              if (res.statusCode === 200) accepted.push(sentAt);
            }),
        );
      }
    }
    await Promise.all(inflight);
    await dispatcher.close();
    // steady state: from 1.5 s (a fresh key gets a full second's allowance at once) to 6.5 s
    const windowStart = started + 1_500;
    const windowEnd = started + 6_500;
    const steady = accepted.filter((at) => at >= windowStart && at < windowEnd).length;
    const rate = (steady * cost) / ((windowEnd - windowStart) / 1000);
    expect(rate).toBeGreaterThan(allowed * 0.9);
    expect(rate).toBeLessThan(allowed * 1.1);
    // both workers took a real share of the requests (so the limit was held across them)
    const after = await scrape();
    for (const worker of ['1', '2']) {
      const handled =
        metricSum(after, 'nodegate_requests_total', { network: 'eth-devnet', worker }) -
        metricSum(before, 'nodegate_requests_total', { network: 'eth-devnet', worker });
      expect(handled, `worker ${worker}'s requests`).toBeGreaterThan(400);
    }
  });

  it('usage recorded by both workers adds up', async () => {
    const [one, two] = await pinBoth();
    const key = await createKey(two);
    for (let i = 0; i < 7; i++) expect((await one.request('POST', rpcPath(key), chainId)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await two.request('POST', rpcPath(key), chainId)).status).toBe(200);
    const from = Date.now() - 3_600_000;
    const usage = () => adminOn(one, 'GET', `/usage?key=${key}&from=${from}&to=${Date.now() + 60_000}&bucket=1h`);
    // each worker flushes its usage once a second
    const totals = await until(async () => {
      const u = await usage();
      return u.totals.requests >= 12 ? u.totals : undefined;
    }, 'both workers to flush their usage');
    expect(totals).toMatchObject({ requests: 12, credits: 12 * cost });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await usage()).totals).toMatchObject({ requests: 12, credits: 12 * cost });
  });

  it("a key's settings change made on one worker reaches the other within 1 s, and a revocation the other way", async () => {
    const [one, two] = await pinBoth();
    const key = await createKey(one);
    expect((await two.request('POST', rpcPath(key), chainId)).status).toBe(200); // known to worker 2
    expect((await one.request('POST', rpcPath(key), chainId)).status).toBe(200); // and to worker 1

    await adminOn(one, 'PATCH', `/keys/${key}`, { settings: { allowedMethods: ['eth_blockNumber'] } });
    let changedAt = Date.now();
    let status = 0;
    while (Date.now() - changedAt < 2_000 && status !== 403)
      status = (await two.request('POST', rpcPath(key), chainId)).status;
    expect(status).toBe(403);
    expect(Date.now() - changedAt).toBeLessThan(1_000);

    await adminOn(two, 'DELETE', `/keys/${key}`);
    changedAt = Date.now();
    while (Date.now() - changedAt < 2_000 && status !== 401)
      status = (await one.request('POST', rpcPath(key), chainId)).status;
    expect(status).toBe(401);
    expect(Date.now() - changedAt).toBeLessThan(1_000);
    await stillOn(one);
    await stillOn(two);
  });

  it('newHeads subscribed on both workers is one upstream subscription on one upstream connection; both get the heads; the last unsubscribe ends it upstream', async () => {
    const key = gw.ready.devKey?.key ?? (await createKey((await pinBoth())[0]));
    const wsUrl = `${gw.ready.networks['eth-devnet']!.ws}/ws/v3/${key}`;
    const subs: Array<{ client: WsTestClient; id: string }> = [];
    const perWorker = async () => {
      const s = await scrape();
      return ['1', '2'].map((worker) =>
        metricSum(s, 'nodegate_ws_client_subscriptions', { network: 'eth-devnet', worker }),
      );
    };
    // new connections until each worker holds a client's newHeads
    for (let i = 0; i < 12; i++) {
      const client = await openWsClient(wsUrl);
      clients.push(client);
      const id = (await client.call('eth_subscribe', ['newHeads'])).result as string;
      expect(id).toMatch(/^0x/);
      subs.push({ client, id });
      const [a, b] = await perWorker();
      if (a! > 0 && b! > 0) break;
    }
    const [a, b] = await perWorker();
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(a! + b!).toBe(subs.length);

    expect(counter.subscribes.filter((p) => JSON.stringify(p) === '["newHeads"]')).toHaveLength(1);
    expect(counter.connections()).toBe(1);
    const s = await scrape();
    expect(metricSum(s, 'nodegate_ws_upstream_subscriptions', { network: 'eth-devnet' })).toBeGreaterThan(0);

    expect((await rpc(anvil.http, 'evm_mine')).error).toBeUndefined();
    for (const { client, id } of subs) {
      await until(async () => client.events(id).length === 1, 'the head on every client');
    }
    const hashes = new Set(subs.map(({ client, id }) => client.events(id)[0].params.result.hash));
    expect(hashes.size).toBe(1);

    for (const { client, id } of subs.slice(0, -1))
      expect((await client.call('eth_unsubscribe', [id])).result).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(counter.unsubscribes).toBe(0); // one holder is left
    expect(counter.connections()).toBe(1);
    const last = subs.at(-1)!;
    expect((await last.client.call('eth_unsubscribe', [last.id])).result).toBe(true);
    // the upstream subscription ends with the last client: unsubscribed, or its connection closed
    // (the primary closes the upstream connection once no worker holds anything; closing it may
    // cut the eth_unsubscribe still buffered, which ends the subscription the same way)
    await until(
      async () => counter.unsubscribes === 1 || counter.connections() === 0,
      'the upstream subscription to end',
    );
    expect(counter.unsubscribes).toBeLessThanOrEqual(1);
  });

  it('a worker that dies is replaced; the gateway keeps answering on both workers', async () => {
    const [, victim] = await childPids(gw.child.pid!);
    process.kill(victim!, 'SIGKILL');
    const exited = await until(
      async () => gw.logLines().find((l) => l.pid === victim && /^worker \d exited/.test(l.msg)),
      'the primary to see the worker exit',
    );
    expect(exited).toMatchObject({ level: 'error' });
    expect(exited.msg).toContain('signal SIGKILL');
    const id = exited.worker as number;
    const restarted = await until(
      async () => gw.logLines().find((l) => l.msg === `worker ${id} started again`),
      `worker ${id} to start again`,
      { tries: 600 },
    );
    expect(restarted.level).toBe('warn');
    expect(restarted.pid).not.toBe(victim);
    expect(alive(restarted.pid)).toBe(true);
    expect(await childPids(gw.child.pid!)).toEqual(expect.arrayContaining([restarted.pid]));
    const [one, two] = await pinBoth();
    for (const p of [one, two]) {
      expect((await p.request('POST', rpcPath(gw.ready.devKey!.key), chainId)).json.result).toBe('0x7a69');
    }
  });

  it('SIGTERM to the primary stops every worker and frees the port', async () => {
    const workers = await childPids(gw.child.pid!);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    const port = Number(new URL(gw.ready.url).port);
    const exited = new Promise<number | null>((r) => gw.child.once('exit', (code) => r(code)));
    gw.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(alive(pid), `worker ${pid} gone`).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});

describe('nodegate start --workers 2: the access log at a stop', () => {
  it('every request answered before SIGTERM has its access line, whichever worker served it', async () => {
    const access = await spawnGateway({
      workers: 2,
      devKey: true,
      log: { access: true },
      database: { kind: 'postgres', url: PG, schema },
      redis: { url: REDIS, prefix },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http }],
        },
      ],
    });
    try {
      const pool = new Agent({ connections: 8 });
      const url = `${access.ready.networks['eth-devnet']!.http}/v3/${access.ready.devKey!.key}`;
      const sent = 200;
      const statuses = await Promise.all(
        Array.from({ length: sent }, async (_, i) => {
          const res = await pool.request({
            origin: new URL(url).origin,
            path: new URL(url).pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: `{"jsonrpc":"2.0","id":${i},"method":"eth_chainId"}`,
          });
          await res.body.dump();
          return res.statusCode;
        }),
      );
      await pool.close();
      expect(statuses.filter((s) => s === 200)).toHaveLength(sent);
      // at once: the workers' last access lines are still on their way to the primary
      const exited = new Promise<number | null>((r) => access.child.once('exit', (code) => r(code)));
      access.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const lines = access.logLines().filter((l) => l.msg === 'request' && l.method === 'eth_chainId');
      expect(lines).toHaveLength(sent);
    } finally {
      await access.stop();
    }
  });
});

/** A WebSocket proxy in front of anvil that counts what the gateway subscribes to upstream. */
interface SubscribeCounter {
  readonly url: string;
  /** The params of every eth_subscribe that went through. */
  readonly subscribes: unknown[];
  readonly unsubscribes: number;
  connections(): number;
  close(): Promise<void>;
}

async function countSubscribes(target: string): Promise<SubscribeCounter> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const subscribes: unknown[] = [];
  let unsubscribes = 0;
  let open = 0;
  server.on('connection', (client) => {
    open++;
    const upstream = new WebSocket(target);
    const held: string[] = [];
    upstream.on('open', () => {
      for (const m of held.splice(0)) upstream.send(m);
    });
    upstream.on('message', (data) => client.send(data.toString()));
    client.on('message', (data) => {
      const text = data.toString();
      const calls = [JSON.parse(text)].flat();
      for (const c of calls) {
        if (c?.method === 'eth_subscribe') subscribes.push(c.params);
        if (c?.method === 'eth_unsubscribe') unsubscribes++;
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else held.push(text);
    });
    const end = () => {
      client.close();
      upstream.close();
    };
    client.on('close', () => {
      open--;
      end();
    });
    upstream.on('close', end);
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribes,
    get unsubscribes() {
      return unsubscribes;
    },
    connections: () => open,
    close: () =>
      new Promise<void>((r) => {
        for (const c of server.clients) c.terminate();
        server.close(() => r());
      }),
  };
}
