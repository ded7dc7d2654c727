// npm run bench -- eth [--seconds N]
// eth_blockNumber and eth_getBlockByNumber(latest,false) at 50 connections against
// (a) anvil direct, (b) a bare pass-through proxy (node:http + undici), (c) nodegate, all in
// one run; then the latency nodegate adds at a fixed 2,000 req/s.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { spawnJsonLine, spawnUntilFile, stop } from './support/children.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const root = new URL('..', import.meta.url).pathname;

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, body: string, opts: { connections?: number; rate?: number; duration?: number } = {}): Promise<Result> {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? seconds,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-'));
  const anvil = await startAnvil();
  const proxy = await spawnJsonLine(process.execPath, ['--import', 'tsx', join(root, 'bench/support/bareProxy.ts'), anvil.http]);
  const configFile = join(dir, 'nodegate.json');
  await writeFile(
    configFile,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      networks: [{ name: 'mainnet', family: 'eth', pathPrefix: '/mainnet', upstreams: [{ name: 'anvil', http: anvil.http }] }],
    }),
  );
  const readyFile = join(dir, 'ready.json');
  const gw = await spawnUntilFile(
    process.execPath,
    [join(root, 'packages/gateway/dist/cli/main.js'), 'start', '--config', configFile, '--ready-file', readyFile],
    readyFile,
  );
  const targets = {
    'a anvil direct': anvil.http,
    'b bare proxy': proxy.value.url as string,
    'c nodegate': `${gw.value.networks.mainnet.http}/v3/${gw.value.devKey.key}`,
  };
  const methods = {
    eth_blockNumber: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
    'eth_getBlockByNumber(latest,false)': '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
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
        console.log(`${name.padEnd(16)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${r.errors}`);
      }
      const a = results['a anvil direct']!.rps;
      const b = results['b bare proxy']!.rps;
      const c = results['c nodegate']!.rps;
      console.log(`ratio c/b = ${(c / b).toFixed(2)} (goal >= 0.8)   c/a = ${(c / a).toFixed(2)}`);
    }
    const body = methods.eth_blockNumber;
    const direct = await load(targets['a anvil direct'], body, { rate: 2000, connections: 20 });
    const via = await load(targets['c nodegate'], body, { rate: 2000, connections: 20 });
    console.log('\nfixed 2,000 req/s, eth_blockNumber (20 connections)');
    console.log(`anvil direct: p50 ${direct.p50} ms, p99 ${direct.p99} ms; nodegate: p50 ${via.p50} ms, p99 ${via.p99} ms`);
    console.log(`latency added by nodegate: p50 ${(via.p50 - direct.p50).toFixed(2)} ms, p99 ${(via.p99 - direct.p99).toFixed(2)} ms (goal p99 < 2 ms)`);
  } finally {
    await stop(gw.child);
    await stop(proxy.child);
    await anvil.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
