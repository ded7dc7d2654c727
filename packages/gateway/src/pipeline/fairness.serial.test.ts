import { fork } from 'node:child_process';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { createTestKey } from '../test-support/testKeys.js';

let t: TestGateway;
let dir: string;
beforeAll(async () => {
  t = await startTestGateway();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-fair-'));
});
afterAll(async () => {
  await t?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Sequential eth_chainId calls of one key; returns the latencies in ms. */
async function measure(url: string, n: number): Promise<number[]> {
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    if (res.status !== 200) throw new Error(`measuring key refused: ${res.status}`);
    out.push(performance.now() - started);
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
    const base = t.gw.networks['eth-devnet']!.http;
    // A: the core plan's limits; B: a key of the same account, same network
    const a = await createTestKey(t.gw, { plan: 'core' });
    const b = await createTestKey(t.gw);
    const bUrl = `${base}/v3/${b.key}`;
    await measure(bUrl, 200); // warm up
    const idle = p99(await measure(bUrl, 600));

    const script = join(dir, 'flood.cjs');
    await writeFile(script, FLOOD);
    const child = fork(script, [`${base}/v3/${a.key}`, '16', '8000'], { stdio: 'ignore' });
    const done = new Promise<{ sent: number; limited: number }>((resolve) => child.once('message', resolve as never));
    await new Promise((r) => setTimeout(r, 1_000)); // the flood is under way
    const loaded = p99(await measure(bUrl, 600));
    const flood = await done;
    console.info(
      `fairness: key B p99 idle ${idle.toFixed(2)} ms, while key A floods ${loaded.toFixed(2)} ms; flood ${flood.sent} batches, ${flood.limited} refused 429`,
    );

    // the flood was real and was held to A's plan
    expect(flood.sent).toBeGreaterThan(100);
    expect(flood.limited / flood.sent).toBeGreaterThan(0.9);
    expect(loaded, `idle p99 ${idle.toFixed(2)} ms, under flood ${loaded.toFixed(2)} ms`).toBeLessThanOrEqual(
      Math.max(2 * idle, idle + 1),
    );
  });
});
