// The getLogs half of `npm run bench -- economy`: one eth_getLogs over 200,000 blocks through
// nodegate, against a provider that takes 2,000 blocks per call, answered by the split layer;
// against the same range split by hand in the client (100 calls of 2,000 blocks, one after the
// other, and 8 at a time: the split layer's default concurrency).
//
// The provider is a model, not a node: anvil cannot mine 200,000 blocks in a reasonable time on
// a small machine, so a small HTTP server plays a provider with a 200,000-block chain (a log
// every 50th block, 4,000 in all: under Infura's 10,000 cap), a fixed latency per call, and a
// geth-worded refusal of ranges over 2,000 blocks. What is measured is nodegate's part: the
// sub-requests it sends and the time the client waits, against a client that splits itself.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { stop } from './children.js';
import { startGatewayProcess } from './startGatewayProcess.js';

const HEAD = 200_000;
const RANGE = 200_000;
const LIMIT = 2_000;
const LOG_EVERY = 50;
const hex = (n: number) => `0x${n.toString(16)}`;
const hash = (what: string) => `0x${createHash('sha256').update(what).digest('hex')}`;

/** The provider model: eth_getLogs up to `LIMIT` blocks after `latencyMs`, the block basics, counts. */
async function startLogsProvider(latencyMs: number) {
  const counts = { getLogs: 0, refused: 0, other: 0 };
  const logsIn = (from: number, to: number) => {
    const out: unknown[] = [];
    for (let n = Math.ceil(from / LOG_EVERY) * LOG_EVERY; n <= to; n += LOG_EVERY) {
      out.push({
        address: `0x${'5f'.repeat(20)}`,
        topics: [hash('Transfer(address,address,uint256)'), hash(`from ${n}`)],
        data: hash(`value ${n}`),
        blockNumber: hex(n),
        blockHash: hash(`block ${n}`),
        transactionHash: hash(`tx ${n}`),
        transactionIndex: '0x0',
        logIndex: '0x0',
        removed: false,
      });
    }
    return out;
  };
  const answer = (m: { id: unknown; method: string; params?: unknown[] }) => {
    const ok = (result: unknown) => ({ jsonrpc: '2.0', id: m.id, result });
    switch (m.method) {
      case 'eth_chainId':
        return ok('0x1');
      case 'net_version':
        return ok('1');
      case 'web3_clientVersion':
        return ok('Geth/v1.14-model');
      case 'eth_syncing':
        return ok(false);
      case 'eth_blockNumber':
        return ok(hex(HEAD));
      case 'eth_getBlockByNumber': {
        const tag = m.params?.[0];
        const n = typeof tag === 'string' && tag.startsWith('0x') ? Number.parseInt(tag, 16) : HEAD;
        return ok({
          number: hex(n),
          hash: hash(`block ${n}`),
          parentHash: hash(`block ${n - 1}`),
          timestamp: hex(n * 12),
        });
      }
      case 'eth_getLogs': {
        const f = (m.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
        const from = f.fromBlock?.startsWith('0x') ? Number.parseInt(f.fromBlock, 16) : HEAD;
        const to = f.toBlock?.startsWith('0x') ? Number.parseInt(f.toBlock, 16) : HEAD;
        if (to - from + 1 > LIMIT) {
          counts.refused += 1;
          return { jsonrpc: '2.0', id: m.id, error: { code: -32000, message: `exceed maximum block range: ${LIMIT}` } };
        }
        counts.getLogs += 1;
        return ok(logsIn(from, to));
      }
      default:
        return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'the method does not exist' } };
    }
  };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string; params?: unknown[] };
  };
  const server = createServer((req, res) => {
    void read(req)
      .then(async (m) => {
        if (m.method !== 'eth_getLogs') counts.other += 1;
        await new Promise((r) => setTimeout(r, latencyMs));
        const body = JSON.stringify(answer(m));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      })
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs the getLogs economy bench: `rounds` rounds, each the three ways interleaved; prints the
 * sub-requests, the provider's getLogs calls and the client's time (median), and checks that
 * the split answer is the hand-split one, log for log.
 */
export async function benchGetLogsSplit(options: { latencyMs: number; rounds: number }): Promise<void> {
  const provider = await startLogsProvider(options.latencyMs);
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-getlogs-'));
  const gw = await startGatewayProcess(dir, {
    cache: { enabled: false },
    networks: [
      {
        name: 'logs',
        family: 'eth',
        pathPrefix: '/logs',
        upstreams: [{ name: 'provider', http: provider.url, timeoutMs: 60_000, getLogsMaxBlockRange: LIMIT }],
        policy: { hedge: false },
      },
    ],
  });
  const pool = new Pool(new URL(gw.ready.url).origin, { connections: 16 });
  const path = `/logs/v3/${gw.ready.devKey.key}`;
  const getLogs = async (from: number, to: number) => {
    const r = await pool.request({
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getLogs',
        params: [{ fromBlock: hex(from), toBlock: hex(to) }],
      }),
    });
    const json = (await r.body.json()) as { result?: unknown[]; error?: { message: string } };
    if (json.result === undefined) throw new Error(`eth_getLogs ${from}-${to}: ${json.error?.message}`);
    return { logs: json.result, split: Number(r.headers['x-nodegate-split'] ?? 0) };
  };
  const from = HEAD - RANGE;
  const to = HEAD - 1;
  const byHand = async (concurrency: number) => {
    const parts: unknown[][] = [];
    let next = from;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next <= to) {
          const start = next;
          next += LIMIT;
          parts[(start - from) / LIMIT] = (await getLogs(start, Math.min(to, start + LIMIT - 1))).logs;
        }
      }),
    );
    return parts.flat();
  };
  try {
    // the unsplit call straight to the provider: what a client without nodegate gets
    const refusedBefore = provider.counts.refused;
    const direct = await fetch(provider.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getLogs',
        params: [{ fromBlock: hex(from), toBlock: hex(to) }],
      }),
    }).then((r) => r.json() as Promise<{ error?: { message: string } }>);
    await getLogs(0, LIMIT - 1); // warm up
    const times = { split: [] as number[], seq: [] as number[], par: [] as number[] };
    let subs = 0;
    let providerCalls = 0;
    let handCalls = 0;
    let logs = 0;
    let same = true;
    for (let round = 0; round < options.rounds; round++) {
      let t = performance.now();
      const before = provider.counts.getLogs;
      const s = await getLogs(from, to);
      times.split.push(performance.now() - t);
      subs = s.split;
      providerCalls = provider.counts.getLogs - before;
      logs = s.logs.length;
      t = performance.now();
      const beforeHand = provider.counts.getLogs;
      const seq = await byHand(1);
      times.seq.push(performance.now() - t);
      handCalls = provider.counts.getLogs - beforeHand;
      t = performance.now();
      const par = await byHand(8);
      times.par.push(performance.now() - t);
      same &&= JSON.stringify(seq) === JSON.stringify(s.logs) && JSON.stringify(par) === JSON.stringify(s.logs);
    }
    const split = median(times.split);
    const seq = median(times.seq);
    const par = median(times.par);
    console.log(
      `\neconomy, eth_getLogs: ${RANGE} blocks (${logs} logs) against a provider that takes ${LIMIT} per call, ${options.latencyMs} ms away (a model: see bench/support/getLogsSplit.ts); median of ${options.rounds} rounds`,
    );
    console.log(
      `  straight to the provider, unsplit: ${direct.error === undefined ? 'answered' : `refused (${direct.error.message})`}, refusals ${provider.counts.refused - refusedBefore}`,
    );
    console.log('way                                   client calls  provider getLogs  ms');
    console.log(
      `nodegate splits (splitConcurrency 8)  ${'1'.padStart(12)}  ${String(providerCalls).padStart(16)}  ${split.toFixed(0).padStart(6)}   X-Nodegate-Split: ${subs}`,
    );
    console.log(
      `by hand, one at a time                ${String(handCalls).padStart(12)}  ${String(handCalls).padStart(16)}  ${seq.toFixed(0).padStart(6)}`,
    );
    console.log(
      `by hand, 8 at a time                  ${String(handCalls).padStart(12)}  ${String(handCalls).padStart(16)}  ${par.toFixed(0).padStart(6)}`,
    );
    console.log(
      `split answer ${same ? 'equals' : 'DIFFERS FROM'} the hand-split one; ${(seq / split).toFixed(1)}× faster than splitting one at a time, ${(par / split).toFixed(2)}× faster than 8 at a time by hand`,
    );
  } finally {
    await pool.close();
    await stop(gw.child);
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  }
}
