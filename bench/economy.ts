// npm run bench -- economy [--part multiplex|getlogs] [--clients 1000] [--waves 10] [--upstream-ms 20] [--rounds 3]
// Upstream economy, in-flight multiplexing: 1,000 concurrent clients poll eth_blockNumber and
// eth_call (the same call) at the same moment, wave after wave, through one nodegate process
// (the built CLI, response cache off so that only multiplexing can save a call) on two networks
// over the same anvil behind a counting proxy that answers like a provider (20 ms away):
// `mux` (policy.multiplex, the default) and `plain` (multiplex: false), interleaved wave by
// wave. Prints, per network, the upstream calls per client call and the client latency (p50,
// p99), and what multiplexing adds to (or takes from) the p99.
// Then (`--part getlogs` alone) eth_getLogs splitting: one call over 200,000 blocks against a
// provider that takes 2,000, against the same range split by hand (bench/support/getLogsSplit.ts).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startAnvil } from '../packages/gateway/dist/embedded/startAnvil.js';
import { stop } from './support/children.js';
import { benchGetLogsSplit } from './support/getLogsSplit.js';
import { startGatewayProcess } from './support/startGatewayProcess.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const CLIENTS = arg('clients', 1000);
const WAVES = arg('waves', 10);
const UPSTREAM_MS = arg('upstream-ms', 20);
const PART = process.argv.includes('--part') ? process.argv[process.argv.indexOf('--part') + 1] : 'all';
const NETWORKS = ['mux', 'plain'] as const;
type Net = (typeof NETWORKS)[number];

/** A provider in front of anvil: answers after `UPSTREAM_MS`, counts the calls it gets per path (one per network). */
async function startCountingProvider(anvilUrl: string) {
  const pool = new Pool(new URL(anvilUrl).origin, { connections: 256 });
  const counts: Record<Net, number> = { mux: 0, plain: 0 };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((req, res) => {
    const net = req.url?.slice(1) as Net;
    if (net in counts) counts[net] += 1;
    void read(req)
      .then(async (body) => {
        await new Promise((r) => setTimeout(r, UPSTREAM_MS));
        const r = await pool.request({
          path: '/',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = Buffer.from(await r.body.arrayBuffer());
        res
          .writeHead(r.statusCode, { 'content-type': 'application/json', 'content-length': answer.length })
          .end(answer);
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.close();
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** The multiplexing half: waves of identical reads through `mux` and `plain`. */
async function multiplexing() {
  const anvil = await startAnvil();
  const provider = await startCountingProvider(anvil.http);
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-economy-'));
  const network = (name: Net, multiplex: boolean) => ({
    name,
    family: 'eth',
    pathPrefix: `/${name}`,
    upstreams: [{ name: 'provider', http: `${provider.url}/${name}`, timeoutMs: 30_000 }],
    policy: { multiplex, hedge: false },
  });
  const gw = await startGatewayProcess(dir, {
    cache: { enabled: false },
    // one key for every client: its slots and queue must hold a whole wave
    limits: { maxConcurrentPerKey: CLIENTS * 2, maxQueuedPerKey: CLIENTS * 4, requestTimeoutMs: 60_000 },
    networks: [network('mux', true), network('plain', false)],
  });
  try {
    const key = gw.ready.devKey.key;
    const clients = new Pool(new URL(gw.ready.url).origin, { connections: CLIENTS, pipelining: 1 });
    const bodies = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'eth_call',
        params: [{ to: `0x${'5f'.repeat(20)}`, data: '0x70a08231' }, 'latest'],
      }),
    ];
    /** One wave: every client sends its call at the same moment; resolves with each one's latency (ms) and the errors. */
    const wave = async (net: Net) => {
      const path = `/${net}/v3/${key}`;
      let errors = 0;
      const latencies = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const started = performance.now();
          const r = await clients.request({
            path,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: bodies[i % 2]!,
          });
          const text = await r.body.text();
          if (r.statusCode !== 200 || !text.includes('"result"')) errors += 1;
          return performance.now() - started;
        }),
      );
      return { latencies, errors };
    };
    // warm up: connections open, code paths compiled
    for (const net of NETWORKS) await wave(net);
    const before = { ...provider.counts };
    const latencies: Record<Net, number[]> = { mux: [], plain: [] };
    let errors = 0;
    for (let w = 0; w < WAVES; w++) {
      // interleaved, alternating which goes first: the machine's drift falls on both
      for (const net of w % 2 === 0 ? NETWORKS : [...NETWORKS].reverse()) {
        const r = await wave(net);
        latencies[net].push(...r.latencies);
        errors += r.errors;
      }
    }
    await clients.close();
    const calls = CLIENTS * WAVES;
    const rows = NETWORKS.map((net) => {
      const sorted = latencies[net].sort((a, b) => a - b);
      return {
        net,
        perCall: (provider.counts[net] - before[net]) / calls,
        upstream: provider.counts[net] - before[net],
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
      };
    });
    console.log(
      `economy: ${CLIENTS} concurrent clients, ${WAVES} waves each of eth_blockNumber and eth_call (half each), upstream ${UPSTREAM_MS} ms away, response cache off`,
    );
    console.log('network            client calls  upstream calls  upstream/client  p50 ms  p99 ms');
    for (const r of rows) {
      console.log(
        `${(r.net === 'mux' ? 'mux (multiplex)' : 'plain (no multiplex)').padEnd(18)} ${String(calls).padStart(12)}  ${String(r.upstream).padStart(14)}  ${r.perCall.toFixed(4).padStart(15)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}`,
      );
    }
    const [mux, plain] = rows as [(typeof rows)[number], (typeof rows)[number]];
    console.log(
      `multiplexing: ${mux.perCall.toFixed(4)} upstream calls per client call (without: ${plain.perCall.toFixed(4)}), ${(plain.perCall / Math.max(mux.perCall, 1e-9)).toFixed(0)}× fewer; p99 ${mux.p99 - plain.p99 >= 0 ? '+' : ''}${(mux.p99 - plain.p99).toFixed(1)} ms (${mux.p99.toFixed(1)} vs ${plain.p99.toFixed(1)}); errors ${errors}`,
    );
  } finally {
    await stop(gw.child);
    await provider.close();
    await anvil.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (PART !== 'getlogs') await multiplexing();
if (PART !== 'multiplex') await benchGetLogsSplit({ latencyMs: UPSTREAM_MS, rounds: arg('rounds', 3) });
