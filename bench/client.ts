// npm run bench -- client [--posts N] [--rounds R] [--connections C]
// The upstream HTTP client alone, in this process: nodegate's own JSON poster
// (createJsonConnections) against undici's pool (createUndiciPoster, the client it replaced), the
// same eth_blockNumber and eth_getBlockByNumber(latest) posts to one anvil at C in flight,
// interleaved rounds. Per post: this process's CPU time (user + system) and the young-generation
// collections it caused (count per 10,000 posts and their pause time), medians of the rounds.
// It runs with the gateway's young generation (--max-semi-space-size=8: scripts/bench.mjs).
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { createJsonConnections } from '../packages/gateway/dist/upstream/createJsonConnections.js';
import { createUndiciPoster } from '../packages/gateway/dist/upstream/createUndiciPoster.js';
import { loadAverage } from './support/processProbe.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : Number(process.argv[i + 1]);
};
const posts = arg('posts') || 40_000;
const rounds = arg('rounds') || 7;
const inFlight = arg('connections') || 50;

let minorGcs = 0;
let minorGcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      minorGcs++;
      minorGcMs += e.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

const anvil = await startAnvil();
const url = new URL(anvil.http);
const headers = ['content-type', 'application/json'];
const clients = {
  nodegate: createJsonConnections(url, headers, { timeoutMs: 10_000 }),
  undici: createUndiciPoster(url, headers, { timeoutMs: 10_000 }),
};
const bodies = {
  eth_blockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
  'eth_getBlockByNumber(latest)': '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
};

async function run(client: keyof typeof clients, body: string) {
  const poster = clients[client];
  let sent = 0;
  const gcs = minorGcs;
  const gcMs = minorGcMs;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent++ < posts) {
        const r = await poster.post(body);
        if (r.status !== 200) throw new Error(`status ${r.status}`);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  // the observer reports after the collection: let it run
  await new Promise((r) => setImmediate(r));
  return {
    cpuUs: (used.user + used.system) / posts,
    gcs: ((minorGcs - gcs) * 10_000) / posts,
    gcMs: ((minorGcMs - gcMs) * 10_000) / posts,
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(
  `upstream client alone: ${posts} posts per run at ${inFlight} in flight, ${rounds} interleaved rounds (median), node ${process.version}, load average ${await loadAverage()}`,
);
for (const [name, body] of Object.entries(bodies)) {
  // a warm-up of each, then the rounds, the order alternating
  for (const c of Object.keys(clients) as (keyof typeof clients)[]) await run(c, body);
  const figures: Record<string, { cpuUs: number[]; gcs: number[]; gcMs: number[] }> = {};
  for (let r = 0; r < rounds; r++) {
    const order = (r % 2 === 0 ? ['nodegate', 'undici'] : ['undici', 'nodegate']) as (keyof typeof clients)[];
    for (const c of order) {
      const f = await run(c, body);
      figures[c] ??= { cpuUs: [], gcs: [], gcMs: [] };
      figures[c].cpuUs.push(f.cpuUs);
      figures[c].gcs.push(f.gcs);
      figures[c].gcMs.push(f.gcMs);
    }
  }
  console.log(`\n${name}`);
  console.log('client    CPU µs/post (median, min–max)   scavenges /10k posts   their pause ms /10k posts');
  for (const [c, f] of Object.entries(figures)) {
    console.log(
      `${c.padEnd(8)}  ${median(f.cpuUs).toFixed(1).padStart(6)} (${Math.min(...f.cpuUs).toFixed(1)}–${Math.max(...f.cpuUs).toFixed(1)})`.padEnd(
        42,
      ) +
        `${median(f.gcs).toFixed(1).padStart(8)}`.padEnd(23) +
        `${median(f.gcMs).toFixed(1).padStart(8)}`,
    );
  }
  const a = median(figures.undici!.cpuUs);
  const b = median(figures.nodegate!.cpuUs);
  console.log(`nodegate / undici: CPU ${(b / a).toFixed(2)} (${(b - a).toFixed(1)} µs per post)`);
}
await Promise.all(Object.values(clients).map((c) => c.close()));
await anvil.stop();
process.exit(0);
