// npm run bench -- alloc [--rate N] [--seconds N] [--top N] [--flags="V8 flags"] [--multiplex] [--builds DIR,DIR]
//   [--deployment embedded|postgres|redis]
// Where the gateway's memory churn per request comes from: nodegate on the embedded defaults (the
// response cache off, each call forwarded as in `bench -- eth` (c)) over anvil, eth_blockNumber
// at a fixed rate (default 2,000/s for 5 s after a 2 s warm-up). V8's sampling heap profiler,
// through the inspector, with objects the young- and old-generation collections freed included,
// gives the bytes allocated per request and the top allocation sites (function, file:line);
// before it, as many seconds without the profiler (which slows both) give the latency and, from
// `--trace-gc-nvp`, the collections, their pauses and the bytes the young collections promoted
// to the old generation per request (what only a full collection frees: the fewer, the rarer the
// full collections under a steady load). --builds runs the plain part for each checkout listed
// (its packages/gateway/dist built; e.g. a git worktree of an earlier commit) in turn, twice,
// as an A/B in one run; the profile is of the first. The gateway starts with `npm start`'s V8 flags
// unless --flags says otherwise; --multiplex keeps the network's multiplexing on (the default of a
// real config: identical reads in flight share one call), off by default as in `bench -- eth`.
// --deployment: the embedded defaults (default, `bench -- eth`'s (c)), PostgreSQL (this machine's,
// a schema of its own, dropped at the end) or PostgreSQL and the Redis limiter (`bench -- eth`'s
// (d), one process).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { fixedRateLatency } from './support/fixedRateLatency.js';
import { loadAverage } from './support/processProbe.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '25' },
    flags: { type: 'string', default: '--max-semi-space-size=8' },
    multiplex: { type: 'boolean', default: false },
    builds: { type: 'string' },
    deployment: { type: 'string', default: 'embedded' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const root = new URL('..', import.meta.url).pathname;
const builds = values.builds?.split(',').map((b) => resolve(b)) ?? [root];
const PG = 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_alloc_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
/** What `--deployment` adds to the config. */
const deployment: Record<string, unknown> =
  values.deployment === 'embedded'
    ? {}
    : values.deployment === 'postgres' || values.deployment === 'redis'
      ? {
          workers: 1,
          database: { kind: 'postgres', url: PG, schema },
          ...(values.deployment === 'redis'
            ? { redis: { url: 'redis://127.0.0.1:6379', prefix: `nodegate-bench:${schema}:` } }
            : {}),
        }
      : (() => {
          throw new Error(`--deployment: embedded, postgres or redis, not ${values.deployment}`);
        })();

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspect(wsUrl: string) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const pending = new Map<number, (v: unknown) => void>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
    if (m.id !== undefined) pending.delete(m.id);
  });
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        pending.set(++id, resolve as (v: unknown) => void);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Starts the gateway of `build` with the inspector on a free port and `--trace-gc-nvp`; its GC lines with their arrival time. */
async function startGateway(dir: string, anvilHttp: string, build: string) {
  await writeFile(
    join(dir, 'nodegate.json'),
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      cache: { enabled: false },
      networks: [
        {
          name: 'bench',
          family: 'eth',
          pathPrefix: '/bench',
          upstreams: [{ name: 'upstream', http: anvilHttp }],
          policy: { multiplex: values.multiplex },
        },
      ],
      ...deployment,
    }),
  );
  const readyFile = join(dir, 'ready.json');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...values.flags.split(' ').filter(Boolean),
      '--inspect=127.0.0.1:0',
      '--trace-gc-nvp',
      join(build, 'packages/gateway/dist/cli/main.js'),
      'start',
      '--config',
      join(dir, 'nodegate.json'),
      '--ready-file',
      readyFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const gc: Array<{ at: number; line: string }> = [];
  let wsUrl = '';
  let partial = '';
  child.stdout!.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (/ gc=\w+ /.test(line)) gc.push({ at: performance.now(), line });
  });
  child.stderr!.on('data', (c: Buffer) => {
    wsUrl ||= /ws:\/\/\S+/.exec(c.toString())?.[0] ?? '';
  });
  const deadline = Date.now() + 60_000;
  while (!existsSync(readyFile) || wsUrl === '') {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as {
    networks: { bench: { http: string } };
    devKey: { key: string };
  };
  return { child, gc, wsUrl, url: `${ready.networks.bench.http}/v3/${ready.devKey.key}` };
}

/** What the young and full collections did in `lines` (the plain run's): pauses and promotion. */
function collections(all: string[], requests: number) {
  // the main thread's isolate: the one that collected most (a worker thread's, the embedded
  // database's, prints its own lines too)
  const isolate = (l: string) => /^\[[^\]]*\]/.exec(l)?.[0] ?? '';
  const counts = new Map<string, number>();
  for (const l of all) counts.set(isolate(l), (counts.get(isolate(l)) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const lines = all.filter((l) => isolate(l) === main);
  const field = (l: string, name: string) => Number(new RegExp(` ${name}=([\\d.]+)`).exec(l)?.[1] ?? Number.NaN);
  const kinds = {
    Scavenge: lines.filter((l) => / gc=s /.test(l)),
    'Mark-Compact': lines.filter((l) => / gc=mc? /.test(l)),
  };
  const promoted = kinds.Scavenge.reduce((sum, l) => sum + field(l, 'promoted'), 0);
  // how much the heap after a young collection grew by the next one, summed over the pairs with
  // no full collection between them: what the old generation gained, promoted or allocated there
  // directly (V8 puts some objects straight into it), per request at the run's rate
  let grew = 0;
  let spanMs = 0;
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    if (!/ gc=s /.test(a) || !/ gc=s /.test(b)) continue;
    grew += field(b, 'end_object_size') - field(a, 'end_object_size');
    spanMs += Number(/(\d+) ms: /.exec(b)?.[1]) - Number(/(\d+) ms: /.exec(a)?.[1]);
  }
  const grown = spanMs > 0 ? `${(grew / ((spanMs * rate) / 1000)).toFixed(0)} bytes/request` : '-';
  const out = [
    `promoted by young collections: ${(promoted / requests).toFixed(0)} bytes/request; the old generation grew by ${grown}`,
  ];
  for (const [kind, ls] of Object.entries(kinds)) {
    const ms = ls.map((l) => field(l, 'pause')).sort((a, b) => a - b);
    const pct = (q: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(2) : '-');
    out.push(
      `${kind}: ${ms.length} in ${seconds} s, pause p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, max ${ms.length ? ms.at(-1)!.toFixed(2) : '-'} ms`,
    );
  }
  return out;
}

const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-alloc-'));
const anvil = await startAnvil();
const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const requests = rate * seconds;
try {
  console.log(
    `nodegate (${values.deployment}${values.multiplex ? ', multiplexing on' : ''}) allocation: eth_blockNumber at ${rate}/s, ${seconds} s plain (each build${builds.length > 1 ? ', interleaved, twice' : ''}) then ${seconds} s profiled, node ${process.version}, load average ${await loadAverage()}`,
  );
  const order = builds.length > 1 ? [...builds, ...builds] : builds;
  for (const [i, build] of order.entries()) {
    await mkdir(join(dir, String(i)));
    const gw = await startGateway(join(dir, String(i)), anvil.http, build);
    try {
      await fixedRateLatency(gw.url, body, rate, 2);
      // first the collections and the latency without the profiler (it slows both), then the profile
      const from = performance.now();
      const load = await fixedRateLatency(gw.url, body, rate, seconds);
      const to = performance.now();
      const during = gw.gc.filter((g) => g.at >= from && g.at <= to).map((g) => g.line);
      console.log(
        `\n${build === root ? 'this checkout' : build}: ${load.errors} errors, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms`,
      );
      for (const line of collections(during, requests)) console.log(`  ${line}`);
      if (i === 0) await profileAllocations(gw.wsUrl, gw.url);
    } finally {
      gw.child.kill('SIGTERM');
    }
  }
} finally {
  await anvil.stop();
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  if (values.deployment !== 'embedded') {
    const pg = await import('pg');
    const client = new pg.default.Client(PG);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

/** The sampling heap profiler over a run: bytes allocated per request, by site. */
async function profileAllocations(wsUrl: string, url: string) {
  const cdp = await inspect(wsUrl);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await fixedRateLatency(url, body, rate, seconds);
  const { profile } = await cdp.send<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
  cdp.close();
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (n: ProfileNode) => {
    if (n.selfSize > 0) {
      const file = n.callFrame.url.replace(/^(?:file:\/\/)?.*?\/(node_modules|packages)\//, '$1/');
      const site = `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
      bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(`  allocated per request (sampled every 1 KiB): ${(total / requests / 1024).toFixed(1)} KB\n`);
  console.log('  bytes/req  site (function, file:line of the built JavaScript)');
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`  ${(bytes / requests).toFixed(0).padStart(9)}  ${site}`);
  }
}
