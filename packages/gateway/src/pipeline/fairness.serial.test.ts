import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';

let anvil: EmbeddedProcess;
let dir: string;
let gateway: SpawnedGateway;
let ready: SpawnedGateway['ready'];

beforeAll(async () => {
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-fair-'));
  // the gateway in its own process, so what is measured is the gateway, not this test's event loop
  gateway = await spawnGateway({
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http }],
      },
    ],
  });
  ready = gateway.ready;
});
afterAll(async () => {
  await gateway?.stop();
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function createKey(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${ready.admin.url}/accounts/operator/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ready.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`creating a key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

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

/** A flood from another process: `connections` loops posting 100-item eth_getLogs batches. */
const FLOOD = `
const [url, connections, ms] = process.argv.slice(2);
const item = (i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest' }] });
const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => item(i)));
const end = Date.now() + Number(ms);
let sent = 0, limited = 0;
async function loop() {
  while (Date.now() < end) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    sent++;
    if (res.status === 429) limited++;
  }
}
Promise.all(Array.from({ length: Number(connections) }, loop)).then(() => {
  process.send({ sent, limited });
});
`;

describe('one key flooding does not slow another', () => {
  it('key B keeps its p99 within 2x its idle value while key A floods with 100-item eth_getLogs batches', async () => {
    const base = ready.networks['eth-devnet']!.http;
    // A: the core plan (500 credits/s); B: another key of the same account on the same network
    const a = await createKey({ name: 'flooder', plan: 'core' });
    const b = await createKey({ name: 'measured' });
    const bUrl = `${base}/v3/${b}`;
    await measure(bUrl, 300); // warm up
    const idle = p99(await measure(bUrl, 1_000));

    const script = join(dir, 'flood.cjs');
    await writeFile(script, FLOOD);
    const child = fork(script, [`${base}/v3/${a}`, '16', '9000'], { stdio: 'ignore' });
    const done = new Promise<{ sent: number; limited: number }>((resolve) => child.once('message', resolve as never));
    await new Promise((r) => setTimeout(r, 1_000)); // the flood is under way
    const loaded = p99(await measure(bUrl, 1_000));
    const flood = await done;
    console.info(
      `fairness: key B p99 idle ${idle.toFixed(2)} ms, while key A floods ${loaded.toFixed(2)} ms; flood ${flood.sent} batches, ${flood.limited} refused 429`,
    );

    // the flood was real and was held to A's plan
    expect(flood.sent).toBeGreaterThan(100);
    expect(flood.limited / flood.sent).toBeGreaterThan(0.9);
    expect(loaded, `idle p99 ${idle.toFixed(2)} ms, under flood ${loaded.toFixed(2)} ms`).toBeLessThanOrEqual(2 * idle);
  });
});
