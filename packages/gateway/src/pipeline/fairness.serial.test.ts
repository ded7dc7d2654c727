import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';

// The gateway as users run it (`npm start`'s V8 flags, its own process), so what is measured is
// the gateway and not this test's own event loop.
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
let anvil: EmbeddedProcess;
let dir: string;
let gateway: ChildProcess;
let ready: { networks: Record<string, { http: string }>; admin: { url: string; token: string } };

beforeAll(async () => {
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-fair-'));
  const configFile = join(dir, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http }],
        },
      ],
    }),
  );
  const readyFile = join(dir, 'ready.json');
  gateway = spawn(
    process.execPath,
    ['--max-semi-space-size=32', CLI, 'start', '--config', configFile, '--ready-file', readyFile],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 600 && !existsSync(readyFile); i++) await new Promise((r) => setTimeout(r, 100));
  ready = JSON.parse(await readFile(readyFile, 'utf8'));
});
afterAll(async () => {
  gateway?.kill('SIGTERM');
  await new Promise((r) => gateway?.once('exit', r));
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
