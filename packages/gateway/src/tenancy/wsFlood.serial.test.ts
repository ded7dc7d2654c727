import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';

// Issue 20, item 5: a key flooding refused calls over one WebSocket got 163k -32005 answers in
// 8 s, took 3.3 CPU-seconds per 5 s of the gateway (an HTTP flood takes 0.4) and raised another
// key's p99 from 8 to 44 ms. Now a held key's messages wait out its pause one at a time, with
// the socket's reading paused, so the flood costs the gateway (in a process of its own, measured
// from /proc) next to nothing and the other key's latency stays where it was.

let anvil: EmbeddedProcess;
let dir: string;
let gateway: SpawnedGateway;

beforeAll(async () => {
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-wsflood-'));
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
});
afterAll(async () => {
  await gateway?.stop();
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function createKey(body: Record<string, unknown>): Promise<string> {
  const { url, token } = gateway.ready.admin;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const { settings, ...create } = body;
  const res = await fetch(`${url}/accounts/operator/keys`, { method: 'POST', headers, body: JSON.stringify(create) });
  if (!res.ok) throw new Error(`creating a key: ${res.status} ${await res.text()}`);
  const key = ((await res.json()) as { key: string }).key;
  if (settings) {
    const patch = await fetch(`${url}/keys/${key}`, { method: 'PATCH', headers, body: JSON.stringify({ settings }) });
    if (!patch.ok) throw new Error(`setting a key: ${patch.status}`);
  }
  return key;
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

/** CPU seconds (user + system) the process has used: /proc/<pid>/stat fields 14 and 15, in ticks of 1/100 s. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The flood, from another process: one WebSocket of the key at a time, sent to as fast as it takes
 * messages (100 at a time while less than 1 MiB waits unsent), opened again at once when closed.
 */
const FLOOD = `
const WebSocket = require(process.argv[2]);
const [, , , url, ms] = process.argv;
const msg = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
const end = Date.now() + Number(ms);
const counts = { sent: 0, ok: 0, limited: 0, closes: 0, refusedUpgrades: 0 };
function open() {
  if (Date.now() > end) return;
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.result !== undefined) counts.ok++;
    else if (m.error && m.error.code === -32005) counts.limited++;
  });
  ws.on('unexpected-response', (req, res) => { counts.refusedUpgrades++; res.resume(); setTimeout(open, 0); });
  ws.on('error', () => {});
  ws.on('close', () => { counts.closes++; setTimeout(open, 0); });
  ws.on('open', function pump() {
    if (ws.readyState !== ws.OPEN || Date.now() > end) return ws.terminate();
    // while the gateway does not read, what is sent waits here: look again a little later
    if (ws.bufferedAmount >= 1 << 20) return setTimeout(pump, 5);
    for (let i = 0; i < 100; i++) { ws.send(msg); counts.sent++; }
    setImmediate(pump);
  });
}
open();
setTimeout(() => process.send(counts, () => process.exit(0)), Number(ms) + 200);
`;

describe('one key flooding a WebSocket with refused calls does not cost the gateway or another key (issue 20, item 5)', () => {
  it('the flood takes well under 1 CPU-second per 5 s, and key B keeps its p99 within 2x its idle value', async () => {
    const base = gateway.ready.networks['eth-devnet']!;
    // A: one eth_chainId a second; B: another key of the same account
    const a = await createKey({ name: 'flooder', settings: { creditsPerSecond: 5 } });
    const b = await createKey({ name: 'measured' });
    const bUrl = `${base.http}/v3/${b}`;
    await measure(bUrl, 300); // warm up
    const idle = p99(await measure(bUrl, 1_000));

    const script = join(dir, 'flood.cjs');
    await writeFile(script, FLOOD);
    const wsModule = createRequire(import.meta.url).resolve('ws');
    const child = fork(script, [wsModule, `${base.ws}/ws/v3/${a}`, '10000'], { stdio: 'ignore' });
    const done = new Promise<Record<string, number>>((resolve) => child.once('message', resolve as never));
    await new Promise((r) => setTimeout(r, 1_000)); // the flood is under way
    const pid = gateway.child.pid!;
    const cpuBefore = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 5_000));
    const cpu = cpuSeconds(pid) - cpuBefore;
    const loaded = p99(await measure(bUrl, 1_000));
    const flood = await done;
    console.info(
      `ws flood: gateway CPU ${cpu.toFixed(2)} s per 5 s; key B p99 idle ${idle.toFixed(2)} ms, under flood ${loaded.toFixed(2)} ms; flood ${JSON.stringify(flood)}`,
    );

    // the flood was real (it offered far more than it got answered) and was held to A's rate
    expect(flood.sent!).toBeGreaterThan(10_000);
    expect(flood.ok! + flood.limited!).toBeLessThan(2_000);
    // before: 3.3 CPU-seconds per 5 s (an HTTP flood: 0.4)
    expect(cpu).toBeLessThan(1);
    expect(loaded, `idle p99 ${idle.toFixed(2)} ms, under flood ${loaded.toFixed(2)} ms`).toBeLessThanOrEqual(
      Math.max(2 * idle, idle + 5),
    );
  });
});
