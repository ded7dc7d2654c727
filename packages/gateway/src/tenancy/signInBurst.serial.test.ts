import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';

// Issue 20, item 6: a burst of sign-in attempts raised another key's p99 from 20 to 91 ms (every
// attempt ran scrypt at once, taking every libuv thread and both cores). scrypt now runs on
// libuv's pool at most (cores - 1) at once with a short wait list; beyond it attempts get 429
// busy + Retry-After at once. The burst comes from another process, each attempt from its own
// forwarded address and for its own email (the gateway trusts 127.0.0.1 as its proxy), so the
// per-address and per-email throttle lets them through and only the scrypt bound holds them.

let anvil: EmbeddedProcess;
let dir: string;
let gateway: SpawnedGateway;

beforeAll(async () => {
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-burst-'));
  gateway = await spawnGateway({
    trustedProxies: ['127.0.0.1'],
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http }],
      },
    ],
  });
});
afterAll(async () => {
  await gateway?.stop();
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Sequential eth_chainId calls of one key on one keep-alive connection; latencies in ms. */
async function measure(url: string, n: number): Promise<number[]> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 1 });
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const res = await pool.request({
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`measuring key refused: ${res.statusCode}`);
      out.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return out;
}
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

/** `size` sign-ins in flight at all times, each from its own forwarded address and for its own email, for `ms`. */
const BURST = `
const [url, size, ms] = process.argv.slice(2);
const end = Date.now() + Number(ms);
const counts = {};
let n = 0;
async function one() {
  const i = n++;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255) },
    body: JSON.stringify({ email: 'burst-' + i + '@example.com', password: 'not the password ' + i }),
  });
  const body = await res.json();
  const key = res.status + ' ' + (body.error ? body.error.code : 'ok') + (res.headers.get('retry-after') ? ' retry-after' : '');
  counts[key] = (counts[key] || 0) + 1;
}
async function loop() {
  while (Date.now() < end) await one();
}
Promise.all(Array.from({ length: Number(size) }, loop)).then(() => process.send(counts));
`;

describe('a burst of sign-ins does not slow another key', () => {
  it('key B keeps its p99 within 2x its idle value while 200 sign-ins at a time run against the admin API', async () => {
    const admin = gateway.ready.admin;
    const res = await fetch(`${admin.url}/accounts/operator/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'measured' }),
    });
    const key = ((await res.json()) as { key: string }).key;
    const bUrl = `${gateway.ready.networks['eth-devnet']!.http}/v3/${key}`;
    await measure(bUrl, 300); // warm up
    const idle = p99(await measure(bUrl, 1_000));

    const script = join(dir, 'burst.cjs');
    await writeFile(script, BURST);
    const child = fork(script, [`${admin.url}/sessions`, '200', '9000'], { stdio: 'ignore' });
    const done = new Promise<Record<string, number>>((resolve) => child.once('message', resolve as never));
    await new Promise((r) => setTimeout(r, 1_000)); // the burst is under way
    const loaded = p99(await measure(bUrl, 1_000));
    const counts = await done;
    console.info(
      `sign-in burst: key B p99 idle ${idle.toFixed(2)} ms, during the burst ${loaded.toFixed(2)} ms; answers ${JSON.stringify(counts)}`,
    );

    // the burst was real, and it was held by the scrypt bound: refused at once with Retry-After, not queued
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(400);
    expect(counts['429 busy retry-after'] ?? 0).toBeGreaterThan(total / 2);
    expect(counts['401 unauthenticated'] ?? 0).toBeGreaterThan(0);
    expect(Object.keys(counts).sort()).toEqual(['401 unauthenticated', '429 busy retry-after']);
    // twice the idle p99, with 10 ms for the scheduler of a 2-core machine that also runs the burst's
    // own process (a quiet machine's idle p99 is 2-3 ms); the defect was 20 -> 91 ms
    expect(loaded, `idle p99 ${idle.toFixed(2)} ms, during the burst ${loaded.toFixed(2)} ms`).toBeLessThanOrEqual(
      Math.max(2 * idle, idle + 10),
    );
  });
});
