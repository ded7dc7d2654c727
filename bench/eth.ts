// npm run bench -- eth [--seconds N]
// eth_blockNumber and eth_getBlockByNumber(latest,false) at 50 connections against
// (a) anvil direct, (b) a bare pass-through proxy (node:http + undici), (c) nodegate, all in
// one run; then the latency nodegate adds at a fixed 2,000 req/s.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { spawnJsonLine, stop } from './support/children.js';
import { startBenchNetwork } from './support/startGatewayProcess.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const root = new URL('..', import.meta.url).pathname;

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(
  url: string,
  body: string,
  opts: { connections?: number; duration?: number } = {},
): Promise<Result> {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? seconds,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

/**
 * Latency at a fixed request rate, with microsecond resolution (autocannon reports whole
 * milliseconds): `rate` requests per second spread evenly over `duration` seconds.
 */
async function fixedRateLatency(url: string, body: string, rate: number, duration: number) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 20 });
  const samples: number[] = [];
  let errors = 0;
  const total = rate * duration;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inflight.push(
      pool
        .request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (res) => {
          await res.body.text();
          if (res.statusCode !== 200) errors++;
          samples.push(performance.now() - t0);
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inflight);
  await pool.close();
  samples.sort((x, y) => x - y);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;
  return { p50: pct(50), p99: pct(99), errors };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-'));
  const anvil = await startAnvil();
  const proxy = await spawnJsonLine(process.execPath, [
    '--import',
    'tsx',
    join(root, 'bench/support/bareProxy.ts'),
    anvil.http,
  ]);
  const gw = await startBenchNetwork(dir, 'eth', anvil.http);
  const targets = {
    'a anvil direct': anvil.http,
    'b bare proxy': proxy.value.url as string,
    'c nodegate': gw.url,
  };
  const methods = {
    eth_blockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
    'eth_getBlockByNumber(latest,false)':
      '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
  };
  try {
    console.log(`nodegate eth benchmark: 50 connections, ${seconds} s per run, node ${process.version}`);
    for (const [method, body] of Object.entries(methods)) {
      const results: Record<string, Result> = {};
      for (const [name, url] of Object.entries(targets)) {
        await load(url, body, { duration: 2 }); // warm-up
        results[name] = await load(url, body);
      }
      console.log(`\n${method}`);
      console.log('target            req/s     p50 ms  p99 ms  errors');
      for (const [name, r] of Object.entries(results)) {
        console.log(
          `${name.padEnd(16)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${r.errors}`,
        );
      }
      const a = results['a anvil direct']!.rps;
      const b = results['b bare proxy']!.rps;
      const c = results['c nodegate']!.rps;
      console.log(`ratio c/b = ${(c / b).toFixed(2)} (goal >= 0.8)   c/a = ${(c / a).toFixed(2)}`);
    }
    const body = methods.eth_blockNumber;
    await fixedRateLatency(targets['c nodegate'], body, 2000, 2); // warm-up
    const direct = await fixedRateLatency(targets['a anvil direct'], body, 2000, seconds);
    const via = await fixedRateLatency(targets['c nodegate'], body, 2000, seconds);
    const ms = (x: number) => x.toFixed(2);
    console.log(`\nfixed 2,000 req/s for ${seconds} s, eth_blockNumber (20 connections, undici client)`);
    console.log(
      `anvil direct: p50 ${ms(direct.p50)} ms, p99 ${ms(direct.p99)} ms; nodegate: p50 ${ms(via.p50)} ms, p99 ${ms(via.p99)} ms; errors ${direct.errors + via.errors}`,
    );
    console.log(
      `latency added by nodegate: p50 ${ms(via.p50 - direct.p50)} ms, p99 ${ms(via.p99 - direct.p99)} ms (goal p99 < 2 ms)`,
    );
  } finally {
    await stop(gw.child);
    await stop(proxy.child);
    await anvil.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
