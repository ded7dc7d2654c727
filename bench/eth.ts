// npm run bench -- eth [--seconds N]
// eth_blockNumber and eth_getBlockByNumber(latest,false) at 50 connections against
// (a) anvil direct, (b) a bare pass-through proxy (node:http + undici), (c) nodegate on the
// embedded defaults (the embedded SQLite, in-memory limiter, usage recorded) with the development
// key, (d) nodegate as several instances run it (PostgreSQL, the Redis limiter, usage recorded)
// with a limited key, in interleaved rounds (median), with each server's CPU time per request and
// what it costs over (b); then the latency nodegate adds at a fixed 2,000 req/s, with the
// gateway's event-loop delay meanwhile (perf_hooks.monitorEventLoopDelay through /metrics), and
// what the Redis deployment adds to it, beside what the bare proxy (b) adds and its event-loop
// delay (anvil measured before and after them); at the end, each server's RSS, now and at its peak. (f) is (d) run as
// `nodegate start --workers 2` (a primary and two worker processes on one port): its CPU is the
// whole process tree's, its event-loop delay the worst worker's, its RSS every process's together.
// The gateways run without in-flight multiplexing (`policy.multiplex: false`): the benchmark sends
// the same call on every connection, which a gateway with it answers with a fraction of the
// upstream calls (`npm run bench -- economy` measures that), and a bare proxy cannot; here each
// request is forwarded, as (b) does, so the figures are the gateway's own cost.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { spawnJsonLine, stop } from './support/children.js';
import { failoverLatency } from './support/failoverLatency.js';
import { fixedRateLatency } from './support/fixedRateLatency.js';
import {
  eventLoopDelayMs,
  loadAverage,
  processTree,
  rssMb,
  scrapeMetrics,
  scrapeWorkers,
} from './support/processProbe.js';
import { type GatewayReady, startBenchNetwork, startGatewayProcess } from './support/startGatewayProcess.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 6;
/** Targets are measured in interleaved rounds and the median kept: this machine drifts between runs. */
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const PG = 'postgres://postgres@127.0.0.1:5432/test';
const benchSchema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const root = new URL('..', import.meta.url).pathname;
/** Every request forwarded, as the bare proxy does (see the header). */
const ONE_CALL_EACH = { policy: { multiplex: false } };

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time (user + system) the server process spent per request, microseconds. */
  cpuUs: number | undefined;
}

/** The run with the median throughput (its latency and CPU figures come with it). */
function medianResult(rs: Result[]): Result {
  const sorted = [...rs].sort((x, y) => x.rps - y.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * CPU time (user + system) of a process and its children (a cluster's workers) so far, ms
 * (Linux /proc; 100 ticks a second).
 */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  let total = 0;
  for (const p of await processTree(pid)) {
    const stat = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => undefined);
    if (!stat) {
      if (p === pid) return undefined;
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/**
 * Resident memory of a process and its children (a cluster's workers), MB, and each one's; with
 * `peak`, each process's highest since its start (VmHWM), added up.
 */
async function treeRssMb(
  pid: number | undefined,
  peak = false,
): Promise<{ total: number; each: number[] } | undefined> {
  if (pid === undefined) return undefined;
  const each: number[] = [];
  for (const p of await processTree(pid)) {
    const mb = await rssMb(p, peak);
    if (mb !== undefined) each.push(mb);
  }
  return each.length === 0 ? undefined : { total: each.reduce((a, b) => a + b, 0), each };
}

async function load(
  url: string,
  body: string,
  opts: { connections?: number; duration?: number; pid?: number | undefined } = {},
): Promise<Result> {
  const cpuBefore = await cpuMs(opts.pid);
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? seconds,
  });
  const cpuAfter = await cpuMs(opts.pid);
  const cpuUs =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / r.requests.total;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
    cpuUs,
  };
}

/**
 * A second gateway with the Redis limiter (a fresh key prefix) and a key of its own whose
 * limits are set (plan override and per-key credits per second), created through the admin API.
 */
async function startLimitedGateway(dir: string, upstreamHttp: string, workers = 1) {
  await mkdir(dir, { recursive: true });
  const { child, ready } = await startGatewayProcess(dir, {
    workers,
    database: { kind: 'postgres', url: PG, schema: benchSchema },
    redis: { url: 'redis://127.0.0.1:6379', prefix: `nodegate-bench:${randomUUID()}:` },
    cache: { enabled: false },
    networks: [
      {
        name: 'bench',
        family: 'eth',
        pathPrefix: '/bench',
        upstreams: [{ name: 'upstream', http: upstreamHttp }],
        ...ONE_CALL_EACH,
      },
    ],
  });
  const adminCall = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${ready.admin.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ready.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { key: string };
  };
  const created = await adminCall('POST', '/accounts/operator/keys', { name: 'bench (limited)', plan: 'dev' });
  await adminCall('PATCH', `/keys/${created.key}`, { settings: { creditsPerSecond: 50_000_000 } });
  return { child, ready, url: `${ready.networks.bench!.http}/v3/${created.key}` };
}

/**
 * `load` at a fixed rate with the gateway's event-loop delay meanwhile (a scrape before resets its
 * histogram); with `workers`, a cluster's: the worst worker's p99 and max.
 */
async function fixedRateWithLoop(url: string, body: string, ready: GatewayReady, workers = 1) {
  const scrape = async () =>
    workers === 1
      ? [await scrapeMetrics(ready.url, ready.admin.token)]
      : scrapeWorkers(ready.url, ready.admin.token, workers);
  await scrape();
  const latency = await fixedRateLatency(url, body, 2000, seconds);
  const loops = (await scrape()).map(eventLoopDelayMs);
  const loop = { p99: Math.max(...loops.map((l) => l.p99)), max: Math.max(...loops.map((l) => l.max)) };
  return { ...latency, loop };
}

/** The same for the bare proxy (b), whose event-loop delay is its own GET /event-loop-delay. */
async function bareFixedRateWithLoop(url: string, body: string) {
  const origin = new URL(url).origin;
  const delay = async () => (await (await fetch(`${origin}/event-loop-delay`)).json()) as { p99: number; max: number };
  await delay();
  const latency = await fixedRateLatency(url, body, 2000, seconds);
  return { ...latency, loop: await delay() };
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
  // a finalized block to read: the cache keeps it (anvil finalizes latest - 64)
  await fetch(anvil.http, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x100"]}',
  });
  // c is nodegate uncached (what the proxy itself costs); e the same with the response cache
  const gw = await startBenchNetwork(dir, 'eth', anvil.http, { cache: { enabled: false } }, ONE_CALL_EACH);
  await mkdir(join(dir, 'cached'), { recursive: true });
  const cached = await startBenchNetwork(join(dir, 'cached'), 'eth', anvil.http, {}, ONE_CALL_EACH);
  const limited = await startLimitedGateway(join(dir, 'limited'), anvil.http).catch(async (err: unknown) => {
    await stop(gw.child);
    await stop(cached.child);
    await stop(proxy.child);
    await anvil.stop();
    throw err;
  });
  // (d) as `nodegate start --workers 2`: a primary and two workers sharing the port
  const twoWorkers = await startLimitedGateway(join(dir, 'two-workers'), anvil.http, 2).catch(async (err: unknown) => {
    await stop(limited.child);
    await stop(gw.child);
    await stop(cached.child);
    await stop(proxy.child);
    await anvil.stop();
    throw err;
  });
  const targets = {
    'a anvil direct': anvil.http,
    'b bare proxy': proxy.value.url as string,
    'c nodegate': gw.url,
    'd nodegate+redis': limited.url,
    'f d, 2 workers': twoWorkers.url,
  };
  const pids: Record<string, number | undefined> = {
    'a anvil direct': undefined,
    'b bare proxy': proxy.child.pid,
    'c nodegate': gw.child.pid,
    'd nodegate+redis': limited.child.pid,
    'f d, 2 workers': twoWorkers.child.pid,
  };
  const methods = {
    eth_blockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
    'eth_getBlockByNumber(latest,false)':
      '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
  };
  try {
    console.log(
      `nodegate eth benchmark: 50 connections, ${seconds} s per run, ${rounds} interleaved rounds (median), node ${process.version}, load average ${await loadAverage()}`,
    );
    for (const [method, body] of Object.entries(methods)) {
      const runs: Record<string, Result[]> = {};
      for (const [name, url] of Object.entries(targets)) {
        await load(url, body, { duration: 2 }); // warm-up
        runs[name] = [];
      }
      for (let round = 0; round < rounds; round++) {
        for (const [name, url] of Object.entries(targets)) runs[name]!.push(await load(url, body, { pid: pids[name] }));
      }
      const results: Record<string, Result> = {};
      for (const [name, rs] of Object.entries(runs)) results[name] = medianResult(rs);
      console.log(`\n${method}`);
      console.log('target             req/s     p50 ms  p99 ms  errors  server CPU µs/req  over b');
      const bareCpu = results['b bare proxy']!.cpuUs;
      for (const [name, r] of Object.entries(results)) {
        const d = r.cpuUs === undefined || bareCpu === undefined ? undefined : r.cpuUs - bareCpu;
        const over = d === undefined ? '-' : `${d >= 0 ? '+' : ''}${d.toFixed(0)}`;
        console.log(
          `${name.padEnd(17)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${String(r.errors).padStart(6)}  ${(r.cpuUs === undefined ? '-' : r.cpuUs.toFixed(0)).padStart(17)}  ${name.startsWith('b') || name.startsWith('a') ? '' : over}`,
        );
      }
      const a = results['a anvil direct']!.rps;
      const b = results['b bare proxy']!;
      const c = results['c nodegate']!;
      const d = results['d nodegate+redis']!;
      const f = results['f d, 2 workers']!;
      console.log(
        `throughput c/b = ${(c.rps / b.rps).toFixed(2)}, d/b = ${(d.rps / b.rps).toFixed(2)} (goal >= 0.8)   c/a = ${(c.rps / a).toFixed(2)}   2 workers / 1: f/d = ${(f.rps / d.rps).toFixed(2)}`,
      );
      if (b.cpuUs && c.cpuUs && d.cpuUs) {
        console.log(
          `CPU per request: c/b = ${(c.cpuUs / b.cpuUs).toFixed(2)}, d/b = ${(d.cpuUs / b.cpuUs).toFixed(2)}${f.cpuUs ? `, f/d = ${(f.cpuUs / d.cpuUs).toFixed(2)} (every process of f)` : ''}`,
        );
      }
    }
    const body = methods.eth_blockNumber;
    await fixedRateLatency(targets['b bare proxy'], body, 2000, 2); // warm-up
    await fixedRateLatency(targets['c nodegate'], body, 2000, 2);
    await fixedRateLatency(targets['d nodegate+redis'], body, 2000, 2);
    await fixedRateLatency(targets['f d, 2 workers'], body, 2000, 2);
    const direct = await fixedRateLatency(targets['a anvil direct'], body, 2000, seconds);
    const viaBare = await bareFixedRateWithLoop(targets['b bare proxy'], body);
    const via = await fixedRateWithLoop(targets['c nodegate'], body, gw.ready);
    const viaRedis = await fixedRateWithLoop(targets['d nodegate+redis'], body, limited.ready);
    const viaWorkers = await fixedRateWithLoop(targets['f d, 2 workers'], body, twoWorkers.ready, 2);
    // anvil direct again, last: the machine drifts over a minute, and the figures added are
    // counted from both of its runs (their mean)
    const directAgain = await fixedRateLatency(targets['a anvil direct'], body, 2000, seconds);
    const base = { p50: (direct.p50 + directAgain.p50) / 2, p99: (direct.p99 + directAgain.p99) / 2 };
    const ms = (x: number) => x.toFixed(2);
    console.log(
      `\nfixed 2,000 req/s for ${seconds} s after 1 s unmeasured, eth_blockNumber (20 connections, undici client)`,
    );
    console.log(
      `anvil direct: p50 ${ms(direct.p50)} ms, p99 ${ms(direct.p99)} ms, and last p50 ${ms(directAgain.p50)} ms, p99 ${ms(directAgain.p99)} ms; bare proxy: p50 ${ms(viaBare.p50)} ms, p99 ${ms(viaBare.p99)} ms; nodegate: p50 ${ms(via.p50)} ms, p99 ${ms(via.p99)} ms; nodegate+redis: p50 ${ms(viaRedis.p50)} ms, p99 ${ms(viaRedis.p99)} ms; 2 workers: p50 ${ms(viaWorkers.p50)} ms, p99 ${ms(viaWorkers.p99)} ms; errors ${direct.errors + directAgain.errors + viaBare.errors + via.errors + viaRedis.errors + viaWorkers.errors}`,
    );
    console.log(
      `latency added by nodegate: p50 ${ms(via.p50 - base.p50)} ms, p99 ${ms(via.p99 - base.p99)} ms (goal p99 < 2 ms); by the bare proxy: p50 ${ms(viaBare.p50 - base.p50)} ms, p99 ${ms(viaBare.p99 - base.p99)} ms; nodegate over the bare proxy: p50 ${ms(via.p50 - viaBare.p50)} ms, p99 ${ms(via.p99 - viaBare.p99)} ms`,
    );
    console.log(
      `latency the Redis limiter and usage recording add (d - c): p50 ${ms(viaRedis.p50 - via.p50)} ms (goal < 0.3 ms), p99 ${ms(viaRedis.p99 - via.p99)} ms`,
    );
    console.log(
      `event-loop delay during the fixed-rate run (monitorEventLoopDelay, 10 ms sampling): b p99 ${ms(viaBare.loop.p99)} ms, max ${ms(viaBare.loop.max)} ms; c p99 ${ms(via.loop.p99)} ms, max ${ms(via.loop.max)} ms; d p99 ${ms(viaRedis.loop.p99)} ms, max ${ms(viaRedis.loop.max)} ms; f (worst worker) p99 ${ms(viaWorkers.loop.p99)} ms, max ${ms(viaWorkers.loop.max)} ms (goal p99 < 1 ms)`,
    );

    // the response cache: a finalized block, read again and again
    const cacheBody = '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x10",false]}';
    const cacheTargets = {
      'b bare proxy': targets['b bare proxy'],
      'c nodegate': gw.url,
      'e nodegate cached': cached.url,
    };
    const cachePids: Record<string, number | undefined> = {
      'b bare proxy': proxy.child.pid,
      'c nodegate': gw.child.pid,
      'e nodegate cached': cached.child.pid,
    };
    const cacheRuns: Record<string, Result[]> = {};
    for (const [name, url] of Object.entries(cacheTargets)) {
      await load(url, cacheBody, { duration: 2 });
      cacheRuns[name] = [];
    }
    for (let round = 0; round < rounds; round++) {
      for (const [name, url] of Object.entries(cacheTargets)) {
        cacheRuns[name]!.push(await load(url, cacheBody, { pid: cachePids[name] }));
      }
    }
    console.log('\neth_getBlockByNumber(0x10,false), a finalized block (cache hits on e)');
    console.log('target             req/s     p50 ms  p99 ms  errors  server CPU µs/req');
    const cacheResults: Record<string, Result> = {};
    for (const [name, rs] of Object.entries(cacheRuns)) {
      const r = medianResult(rs);
      cacheResults[name] = r;
      console.log(
        `${name.padEnd(17)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${String(r.errors).padStart(6)}  ${r.cpuUs === undefined ? '-' : r.cpuUs.toFixed(0)}`,
      );
    }
    const e = cacheResults['e nodegate cached']!.rps;
    console.log(
      `cache hits: e/c = ${(e / cacheResults['c nodegate']!.rps).toFixed(2)} (goal >= 2), e/b = ${(e / cacheResults['b bare proxy']!.rps).toFixed(2)} (goal >= 1.2)`,
    );

    const servers = {
      'b bare proxy': proxy.child.pid,
      'c nodegate': gw.child.pid,
      'd nodegate+redis': limited.child.pid,
      'e nodegate cached': cached.child.pid,
      'f d, 2 workers': twoWorkers.child.pid,
    };
    const rss: string[] = [];
    for (const [name, pid] of Object.entries(servers)) {
      const r = await treeRssMb(pid);
      const peak = await treeRssMb(pid, true);
      const each = r && r.each.length > 1 ? ` (${r.each.map((mb) => mb.toFixed(0)).join(' + ')})` : '';
      rss.push(`${name} ${r?.total.toFixed(0) ?? '-'} MB${each}, peak ${peak?.total.toFixed(0) ?? '-'}`);
    }
    console.log(`\nRSS at the end, and each server's peak since its start (VmHWM): ${rss.join('; ')}`);

    for (const line of await failoverLatency(join(dir, 'failover'))) console.log(line);
    console.log(`load average at the end: ${await loadAverage()}`);
  } finally {
    await stop(cached.child);
    await stop(twoWorkers.child);
    await stop(limited.child);
    const pg = await import('pg');
    const client = new pg.default.Client(PG);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${benchSchema} CASCADE`);
    await client.end();
    await stop(gw.child);
    await stop(proxy.child);
    await anvil.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
