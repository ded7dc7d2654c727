// npm run bench -- starknet [--seconds N]
// stk_getBlockWithTxs and stk_getEvents at 50 connections against (a) the Starknet dev chain
// direct, (b) a bare pass-through proxy in front of it, (c) nodegate (stk_ names, seed shapes)
// and (d) nodegate with the starknet_ alias (spec shapes, relayed untouched), in one run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startStarknetDevchain } from '../packages/gateway/dist/embedded/startStarknetDevchain.js';
import { spawnJsonLine, stop } from './support/children.js';
import { startBenchNetwork } from './support/startGatewayProcess.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const root = new URL('..', import.meta.url).pathname;

async function load(url: string, body: string, duration = seconds) {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: 50,
    duration,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

async function rpc(url: string, method: string, params: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: any }).result;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-stk-'));
  const devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  // Some history to page through: 300 mints, each a block with a Transfer event.
  const accounts = await rpc(devchain.http, 'devnet_getPredeployedAccounts', {});
  for (let i = 0; i < 300; i++)
    await rpc(devchain.http, 'devnet_mint', {
      address: accounts[i % accounts.length].address,
      amount: 1000 + i,
      unit: 'FRI',
    });
  const proxy = await spawnJsonLine(process.execPath, [
    '--import',
    'tsx',
    join(root, 'bench/support/bareProxy.ts'),
    devchain.http,
  ]);
  const gw = await startBenchNetwork(dir, 'starknet', devchain.http);
  const gwUrl = gw.url;
  const calls = {
    'getBlockWithTxs(latest)': { block_id: 'latest' },
    'getEvents(100 per page)': { filter: { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 100 } },
  };
  try {
    console.log(`nodegate starknet benchmark: 50 connections, ${seconds} s per run, node ${process.version}`);
    for (const [label, params] of Object.entries(calls)) {
      const name = label.slice(0, label.indexOf('('));
      const spec = JSON.stringify({ jsonrpc: '2.0', id: 1, method: `starknet_${name}`, params });
      const seed = JSON.stringify({ jsonrpc: '2.0', id: 1, method: `stk_${name}`, params });
      const targets: Array<[string, string, string]> = [
        ['a dev chain direct', devchain.http, spec],
        ['b bare proxy', proxy.value.url, spec],
        ['c nodegate stk_', gwUrl, seed],
        ['d nodegate starknet_', gwUrl, spec],
      ];
      const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
      for (const [t, url, body] of targets) {
        await load(url, body, 2);
        results[t] = await load(url, body);
      }
      console.log(`\n${label}`);
      console.log('target                 req/s   p50 ms  p99 ms  errors');
      for (const [t, r] of Object.entries(results)) {
        console.log(
          `${t.padEnd(21)} ${r.rps.toFixed(0).padStart(6)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${r.errors}`,
        );
      }
      const b = results['b bare proxy']!.rps;
      console.log(
        `ratio c/b = ${(results['c nodegate stk_']!.rps / b).toFixed(2)}, d/b = ${(results['d nodegate starknet_']!.rps / b).toFixed(2)} (goal >= 0.8)`,
      );
    }
  } finally {
    await stop(gw.child);
    await stop(proxy.child);
    await devchain.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
