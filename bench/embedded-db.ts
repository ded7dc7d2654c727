// npm run bench -- embedded-db [--seconds N] [--variants sqlite-worker,pglite-worker,…] [--semi-space MB,…]
// The embedded database's two roads, measured in one run (issue 22, item 1): the gateway on the
// embedded defaults (as `npm start` runs it) with (1) PGlite on the gateway's own thread, as
// before, (2) PGlite in a worker thread, (3) SQLite (node:sqlite) on the gateway's thread, (4)
// SQLite in a worker thread (the default). For each, one after the other: the gateway process's
// RSS 10 s after it was spawned; eth_blockNumber at a fixed 2,000 req/s for N s (default 20) with
// the request latency (p50, p99) and the gateway's event-loop delay (p99 and max, from
// perf_hooks.monitorEventLoopDelay through /metrics); the usage flushes' time meanwhile; RSS at
// 2 min, and its maximum over those 2 min. `--semi-space 32,16` runs each variant once per young
// generation size (V8's --max-semi-space-size; `npm start` gives 8).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stop } from './support/children.js';
import { fixedRateLatency } from './support/fixedRateLatency.js';
import { eventLoopDelayMs, loadAverage, mainThreadSchedMs, rssMb, scrapeMetrics } from './support/processProbe.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const seconds = Number(arg('seconds')) || 20;
const VARIANTS = {
  'pglite-inline': { engine: 'pglite', thread: 'inline', name: 'PGlite, gateway thread (before)' },
  'pglite-worker': { engine: 'pglite', thread: 'worker', name: 'PGlite, worker thread' },
  'sqlite-inline': { engine: 'sqlite', thread: 'inline', name: 'SQLite, gateway thread' },
  'sqlite-worker': { engine: 'sqlite', thread: 'worker', name: 'SQLite, worker thread (default)' },
} as const;
const chosen = (arg('variants')?.split(',') ?? Object.keys(VARIANTS)) as Array<keyof typeof VARIANTS>;
const semiSpaces = (arg('semi-space') ?? '8').split(',').map(Number);
const root = new URL('..', import.meta.url).pathname;
const BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));

interface Figures {
  rss10: number | undefined;
  rss120: number | undefined;
  rssMax: number;
  p50: number;
  p99: number;
  errors: number;
  loopP99: number;
  loopMax: number;
  flushes: number;
  flushAvgMs: number;
  lastFlushMs: number;
  /** The gateway's main thread during the fixed-rate run: CPU per request (µs), and the time it waited for a CPU (ms). */
  threadCpuUs: number;
  threadWaitedMs: number;
}

async function measure(dir: string, variant: keyof typeof VARIANTS, semiSpaceMb: number): Promise<Figures> {
  const { engine, thread } = VARIANTS[variant];
  const readyFile = join(dir, 'ready.json');
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      `--max-semi-space-size=${semiSpaceMb}`,
      join(root, 'bench/support/embeddedDbGateway.mjs'),
      join(dir, 'data'),
      engine,
      thread,
      readyFile,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let rssMax = 0;
  const sampler = setInterval(async () => {
    rssMax = Math.max(rssMax, (await rssMb(child.pid)) ?? 0);
  }, 250);
  try {
    while (!existsSync(readyFile)) {
      if (child.exitCode !== null) throw new Error(`the gateway (${variant}) exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error(`the gateway (${variant}) did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const ready = JSON.parse(await readFile(readyFile, 'utf8'));
    const url = `${ready.networks['eth-devnet'].http}/v3/${ready.devKey.key}`;
    await sleepUntil(started + 10_000);
    const rss10 = await rssMb(child.pid);
    await fixedRateLatency(url, BODY, 2000, 2); // warm-up
    const before = await scrapeMetrics(ready.url, ready.admin.token); // resets the event-loop histogram
    const schedBefore = await mainThreadSchedMs(child.pid);
    const load = await fixedRateLatency(url, BODY, 2000, seconds);
    const schedAfter = await mainThreadSchedMs(child.pid);
    const after = await scrapeMetrics(ready.url, ready.admin.token);
    const loop = eventLoopDelayMs(after);
    const flushes =
      (after.get('nodegate_usage_flushes_total') ?? 0) - (before.get('nodegate_usage_flushes_total') ?? 0);
    const flushSeconds =
      (after.get('nodegate_usage_flush_seconds_total') ?? 0) - (before.get('nodegate_usage_flush_seconds_total') ?? 0);
    await sleepUntil(started + 120_000);
    const rss120 = await rssMb(child.pid);
    return {
      rss10,
      rss120,
      rssMax,
      p50: load.p50,
      p99: load.p99,
      errors: load.errors,
      loopP99: loop.p99,
      loopMax: loop.max,
      flushes,
      flushAvgMs: flushes > 0 ? (flushSeconds * 1000) / flushes : Number.NaN,
      lastFlushMs: (after.get('nodegate_usage_last_flush_seconds') ?? Number.NaN) * 1000,
      threadCpuUs:
        schedBefore && schedAfter ? ((schedAfter.cpu - schedBefore.cpu) * 1000) / (2000 * seconds) : Number.NaN,
      threadWaitedMs: schedBefore && schedAfter ? schedAfter.waited - schedBefore.waited : Number.NaN,
    };
  } finally {
    clearInterval(sampler);
    await stop(child);
  }
}

const base = await mkdtemp(join(tmpdir(), 'nodegate-embedded-db-'));
const f1 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(1));
const f2 = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(2));
try {
  console.log(
    `embedded database: the gateway on the embedded defaults, eth_blockNumber at a fixed 2,000 req/s for ${seconds} s, node ${process.version}, load average ${await loadAverage()}`,
  );
  console.log(
    'variant                           RSS MB 10 s / 2 min / max   latency p50 / p99 ms   loop delay p99 / max ms   flushes, avg / last ms   gateway thread µs/req, waited ms   errors',
  );
  let i = 0;
  for (const semiSpace of semiSpaces)
    for (const variant of chosen) {
      const r = await measure(join(base, String(i++)), variant, semiSpace);
      const name =
        semiSpaces.length > 1 ? `${VARIANTS[variant].name}, semi-space ${semiSpace}` : VARIANTS[variant].name;
      console.log(
        `${name.padEnd(33)} ${`${f1(r.rss10)} / ${f1(r.rss120)} / ${f1(r.rssMax)}`.padEnd(27)} ${`${f2(r.p50)} / ${f2(r.p99)}`.padEnd(22)} ${`${f2(r.loopP99)} / ${f2(r.loopMax)}`.padEnd(25)} ${`${r.flushes}, ${f2(r.flushAvgMs)} / ${f2(r.lastFlushMs)}`.padEnd(24)} ${`${f1(r.threadCpuUs)}, ${f1(r.threadWaitedMs)}`.padEnd(34)} ${r.errors}`,
      );
    }
  console.log(`load average at the end: ${await loadAverage()}`);
} finally {
  await rm(base, { recursive: true, force: true });
}
