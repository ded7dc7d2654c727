// npm run bench -- ab --a DIR --b DIR [--a-flags F] [--b-flags F] [--requests N] [--rounds R] [--connections C] [--prof]
// An A/B of two builds of the gateway in one run: DIR is a checkout whose
// packages/gateway/dist is built (e.g. a git worktree of the previous commit in /tmp, and the
// working tree). Each build runs as (c) (embedded defaults, cache off) and (e) (cache on, hits),
// beside the bare proxy (b), all over one anvil. Rounds are interleaved; each target answers a
// fixed number of requests and the server's CPU time (every thread, ns, /proc/PID/task/*/schedstat)
// is divided by that number: CPU µs per request is far less sensitive to a busy machine than
// req/s, so it is the figure to read. The median of the rounds is printed per target, with the
// machine's load average. --prof writes a V8 CPU profile of each gateway to /tmp/nodegate-ab-prof.
// --a-flags / --b-flags: the Node/V8 flags each side's gateways start with (space-separated;
// default `--max-semi-space-size=8`, as `npm start`), to compare flags on one build; at the end,
// each gateway's peak RSS (VmHWM) over the run.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { spawnJsonLine, spawnUntilFile, stop } from './support/children.js';
import { loadAverage } from './support/processProbe.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const root = new URL('..', import.meta.url).pathname;
const builds = { A: resolve(arg('a') ?? root), B: resolve(arg('b') ?? root) };
const requests = Number(arg('requests')) || 20_000;
const rounds = Number(arg('rounds')) || 5;
const connections = Number(arg('connections')) || 50;
const prof = process.argv.includes('--prof');
const only = arg('only')?.split(',');
const flagsOf = {
  A: (arg('a-flags') ?? '--max-semi-space-size=8').split(' ').filter(Boolean),
  B: (arg('b-flags') ?? '--max-semi-space-size=8').split(' ').filter(Boolean),
};

/** CPU time of every thread of a process so far, ns (threads that exited are not counted). */
async function cpuNs(pid: number): Promise<number> {
  let total = 0;
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const text = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0');
    total += Number(text.split(' ')[0]);
  }
  return total;
}

async function startGateway(
  buildRoot: string,
  nodeFlags: readonly string[],
  dir: string,
  upstream: string,
  extra: Record<string, unknown>,
) {
  await mkdir(dir, { recursive: true });
  const configFile = join(dir, 'nodegate.json');
  await writeFile(
    configFile,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      networks: [
        { name: 'bench', family: 'eth', pathPrefix: '/bench', upstreams: [{ name: 'upstream', http: upstream }] },
      ],
      ...extra,
    }),
  );
  const readyFile = join(dir, 'ready.json');
  const flags = prof ? ['--cpu-prof', '--cpu-prof-dir', join('/tmp/nodegate-ab-prof', dir.split('/').pop()!)] : [];
  const gw = await spawnUntilFile(
    process.execPath,
    [
      ...nodeFlags,
      ...flags,
      join(buildRoot, 'packages/gateway/dist/cli/main.js'),
      'start',
      '--config',
      configFile,
      '--ready-file',
      readyFile,
    ],
    readyFile,
  );
  const ready = gw.value as { networks: Record<string, { http: string }>; devKey: { key: string } };
  return { child: gw.child, url: `${ready.networks.bench!.http}/v3/${ready.devKey.key}` };
}

async function fire(url: string, body: string, amount: number) {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    amount,
  });
  return { rps: r.requests.average, errors: r.errors + r.non2xx + r.timeouts, total: r.requests.total };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-ab-'));
  const anvil = await startAnvil();
  await fetch(anvil.http, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x100"]}',
  });
  const proxy = await spawnJsonLine(process.execPath, [
    '--import',
    'tsx',
    join(root, 'bench/support/bareProxy.ts'),
    anvil.http,
  ]);
  const servers: Record<string, { child: import('node:child_process').ChildProcess; url: string }> = {
    b: { child: proxy.child, url: proxy.value.url as string },
  };
  try {
    for (const [name, buildRoot] of Object.entries(builds) as Array<['A' | 'B', string]>) {
      const nodeFlags = flagsOf[name];
      servers[`c${name}`] = await startGateway(buildRoot, nodeFlags, join(dir, `c${name}`), anvil.http, {
        cache: { enabled: false },
      });
      servers[`e${name}`] = await startGateway(buildRoot, nodeFlags, join(dir, `e${name}`), anvil.http, {});
    }
    const bodies: Record<string, { body: string; targets: string[] }> = {
      eth_blockNumber: {
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
        targets: ['b', 'cA', 'cB'],
      },
      'eth_getBlockByNumber(latest,false)': {
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
        targets: ['b', 'cA', 'cB'],
      },
      'eth_getBlockByNumber(0x10,false) cached': {
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x10",false]}',
        targets: ['b', 'eA', 'eB'],
      },
    };
    console.log(
      `A/B: A=${builds.A} ${flagsOf.A.join(' ')} B=${builds.B} ${flagsOf.B.join(' ')}; ${requests} requests per run, ${connections} connections, ${rounds} interleaved rounds (median), node ${process.version}`,
    );
    for (const [label, { body, targets }] of Object.entries(bodies)) {
      if (only && !only.some((o) => label.startsWith(o))) continue;
      const cpu: Record<string, number[]> = {};
      const rps: Record<string, number[]> = {};
      let errors = 0;
      for (const t of targets) {
        const warm = await fire(servers[t]!.url, body, Math.min(requests, 5_000)); // warm-up
        if (warm.errors > 0) throw new Error(`${t} answered ${warm.errors} of its warm-up requests with an error`);
        cpu[t] = [];
        rps[t] = [];
      }
      const loadBefore = await loadAverage();
      for (let round = 0; round < rounds; round++) {
        // the order turns each round, so no target always follows the same one
        const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
        for (const t of order) {
          const pid = servers[t]!.child.pid!;
          const before = await cpuNs(pid);
          const r = await fire(servers[t]!.url, body, requests);
          const after = await cpuNs(pid);
          if (r.errors > 0) console.log(`${t}: ${r.errors} errors in round ${round + 1}`);
          cpu[t]!.push((after - before) / 1000 / r.total);
          rps[t]!.push(r.rps);
          errors += r.errors;
        }
      }
      const loadAfter = await loadAverage();
      console.log(`\n${label} (load average ${loadBefore?.toFixed(2)} → ${loadAfter?.toFixed(2)}, errors ${errors})`);
      console.log('target  CPU µs/req (median, min–max)        req/s (median)');
      for (const t of targets) {
        const cs = cpu[t]!;
        console.log(
          `${t.padEnd(6)}  ${median(cs).toFixed(1).padStart(6)} (${Math.min(...cs).toFixed(1)}–${Math.max(...cs).toFixed(1)})`.padEnd(
            40,
          ) + `${median(rps[t]!).toFixed(0).padStart(7)}`,
        );
      }
      const [, x, y] = targets;
      const d = median(cpu[y!]!) - median(cpu[x!]!);
      const pairs = cpu[x!]!.map((v, i) => cpu[y!]![i]! - v).sort((p, q) => p - q);
      console.log(
        `B − A: ${d >= 0 ? '+' : ''}${d.toFixed(1)} µs/req (${((d / median(cpu[x!]!)) * 100).toFixed(1)}%); per round ${pairs.map((p) => p.toFixed(1)).join(', ')}; over b: A +${(median(cpu[x!]!) - median(cpu.b!)).toFixed(1)}, B +${(median(cpu[y!]!) - median(cpu.b!)).toFixed(1)}; req/s B/A ${(median(rps[y!]!) / median(rps[x!]!)).toFixed(2)}`,
      );
    }
    const peaks = await Promise.all(
      Object.entries(servers).map(async ([t, s]) => {
        const status = await readFile(`/proc/${s.child.pid}/status`, 'utf8').catch(() => '');
        const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
        return `${t} ${kb ? (Number(kb) / 1024).toFixed(0) : '-'} MB`;
      }),
    );
    console.log(`\npeak RSS over the run: ${peaks.join(', ')}`);
  } finally {
    for (const s of Object.values(servers)) await stop(s.child);
    await anvil.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
