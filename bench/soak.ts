// npm run bench -- soak [--minutes N] [--clients N]
// A soak of one gateway on the embedded defaults (anvil, the Starknet dev chain, the IPFS node),
// started as `npm start` starts it: WebSocket clients that subscribe (newHeads, logs) and come and
// go, mixed HTTP traffic (eth reads, eth writes that mine blocks, Starknet reads, IPFS add/cat),
// for N minutes (default 10). Reports the gateway process's RSS after the warm-up and at the end
// (and its maximum), the ratio end / start, and what every client received: a flat memory line is
// the goal, and no client may miss a head it was subscribed for.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, FormData, request } from 'undici';
import WebSocket from 'ws';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { adminClient } from '../packages/gateway/dist/admin/adminClient.js';
import { stop } from './support/children.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const minutes = arg('minutes', 10);
const clientCount = arg('clients', 200);
const warmupMs = Math.min(30_000, minutes * 60_000 * 0.1);
const root = new URL('..', import.meta.url).pathname;

const dir = await mkdtemp(join(tmpdir(), 'nodegate-soak-'));
const readyFile = join(dir, 'ready.json');
// the gateway's own output (the embedded default's access log) is not wanted here
const child = spawn(
  process.execPath,
  [
    '--max-semi-space-size=8',
    join(root, 'packages/gateway/dist/cli/main.js'),
    'start',
    '--listen',
    '127.0.0.1:0',
    '--data-dir',
    join(dir, 'data'),
    '--ready-file',
    readyFile,
  ],
  { stdio: 'ignore' },
);
for (let i = 0; !existsSync(readyFile); i++) {
  if (child.exitCode !== null || i > 1200) throw new Error('the gateway did not start');
  await new Promise((r) => setTimeout(r, 100));
}
const gw = { child, value: JSON.parse(await readFile(readyFile, 'utf8')) };
const ready = gw.value as {
  url: string;
  networks: Record<string, { http: string; ws: string }>;
  ipfs?: string;
  devKey: { key: string; secret: string };
};
const key = ready.devKey.key;
const eth = `${ready.networks['eth-devnet']!.http}/v3/${key}`;
// a key holds at most 100 WebSocket connections per instance (limits.ws.maxConnectionsPerKey): the clients are
// spread over keys of their own, 50 per key, so none is refused by the cap
const admin = adminClient(ready.url, (await readFile(join(dir, 'data', 'admin-token'), 'utf8')).trim());
const wsKeys: string[] = [];
for (let i = 0; i < Math.ceil(clientCount / 50); i++) {
  wsKeys.push((await admin.createKey({ name: `soak-${i}`, plan: 'growth' })).key);
}
const ethWsOf = (i: number) => `${ready.networks['eth-devnet']!.ws}/ws/v3/${wsKeys[Math.floor(i / 50)]}`;
const stk = `${ready.networks['starknet-devnet']!.http}/v3/${key}`;
const ipfsBase = ready.ipfs;
const ipfsAuth = `Basic ${Buffer.from(`${key}:${ready.devKey.secret}`).toString('base64')}`;
const dispatcher = new Agent({ connections: 16 });

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

let nextId = 1;
const counts = {
  http: 0,
  httpErrors: 0,
  ipfs: 0,
  ipfsErrors: 0,
  wsConnects: 0,
  wsRefused: 0,
  notifications: 0,
  gaps: 0,
};
async function rpc(url: string, method: string, params: unknown): Promise<unknown> {
  const r = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const body = (await r.body.json()) as { result?: unknown; error?: { message: string } };
  counts.http += 1;
  if (body.error) {
    counts.httpErrors += 1;
    throw new Error(body.error.message);
  }
  return body.result;
}

const [from] = (await rpc(eth, 'eth_accounts', [])) as string[];
let running = true;
const loops: Promise<void>[] = [];
const every = (ms: number, fn: () => Promise<unknown>) =>
  loops.push(
    (async () => {
      while (running) {
        await fn().catch((err) => {
          if (process.env.SOAK_DEBUG) console.error(err);
        });
        await new Promise((r) => setTimeout(r, ms));
      }
    })(),
  );

// one value transfer a second: a block each (anvil mines on every transaction)
every(1_000, () => rpc(eth, 'eth_sendTransaction', [{ from, to: `0x${'11'.repeat(20)}`, value: '0x1' }]));
// reads, several flavours
for (let i = 0; i < 4; i++) {
  every(20, () => rpc(eth, 'eth_blockNumber', []));
  every(50, () => rpc(eth, 'eth_getBlockByNumber', ['latest', true]));
  every(100, () => rpc(eth, 'eth_getBalance', [from, 'latest']));
  every(100, () => rpc(stk, 'starknet_blockNumber', {}));
}
every(200, () => rpc(stk, 'starknet_getBlockWithTxHashes', { block_id: 'latest' }));
// IPFS: a small add and its cat
if (ipfsBase) {
  every(500, async () => {
    const form = new FormData();
    form.append('file', new Blob([`soak ${Date.now()} ${Math.random()}`]));
    const r = await request(`${ipfsBase}/api/v0/add?pin=false`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: ipfsAuth },
      body: form as never,
    });
    const text = await r.body.text();
    counts.ipfs += 1;
    if (r.statusCode !== 200) {
      counts.ipfsErrors += 1;
      return;
    }
    const cid = (JSON.parse(text) as { Hash: string }).Hash;
    const c = await request(`${ipfsBase}/api/v0/cat?arg=${cid}`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: ipfsAuth },
    });
    await c.body.text();
    counts.ipfs += 1;
    if (c.statusCode !== 200) counts.ipfsErrors += 1;
  });
}

// WebSocket clients: each subscribes to newHeads (and every fourth to a logs filter), checks the
// heads it gets are consecutive, and lives for 20 to 60 s before a new one takes its place.
const sockets = new Set<WebSocket>();
function client(i: number): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(ethWsOf(i));
    // a refused upgrade (a limit) is counted and waited out, not retried at once
    let refused = false;
    ws.on('unexpected-response', (_req, res) => {
      refused = true;
      counts.wsRefused += 1;
      res.resume();
      ws.terminate();
      setTimeout(resolve, 1_000);
    });
    sockets.add(ws);
    counts.wsConnects += 1;
    let last: bigint | undefined;
    const life = setTimeout(() => ws.close(1000), 20_000 + Math.random() * 40_000);
    ws.on('open', () => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      if (Math.random() < 0.25) {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', {}] }));
      }
    });
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { method?: string; params?: { result?: { number?: string } } };
      if (m.method !== 'eth_subscription') return;
      counts.notifications += 1;
      const n = m.params?.result?.number;
      if (n === undefined) return;
      const h = BigInt(n);
      if (last !== undefined && h !== last + 1n) counts.gaps += 1;
      last = h;
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      clearTimeout(life);
      sockets.delete(ws);
      if (!refused) resolve();
    });
  });
}
for (let i = 0; i < clientCount; i++) {
  loops.push(
    (async () => {
      await new Promise((r) => setTimeout(r, Math.random() * 5_000));
      while (running) await client(i);
    })(),
  );
}

const pid = gw.child.pid!;
const samples: { t: number; rss: number }[] = [];
const started = Date.now();
const end = started + minutes * 60_000;
let startRss: number | undefined;
while (Date.now() < end) {
  await new Promise((r) => setTimeout(r, 10_000));
  const rss = await rssMb(pid);
  samples.push({ t: Math.round((Date.now() - started) / 1000), rss });
  if (startRss === undefined && Date.now() - started >= warmupMs) startRss = rss;
  process.stderr.write(
    `soak: ${Math.round((Date.now() - started) / 1000)} s, RSS ${rss.toFixed(0)} MB, ${counts.http} http, ${counts.wsConnects} ws connects, ${counts.notifications} notifications\n`,
  );
}
const endRss = await rssMb(pid);
running = false;
for (const ws of sockets) ws.terminate();
await Promise.allSettled(loops);
await stop(gw.child);
await dispatcher.close();
await rm(dir, { recursive: true, force: true });

const maxRss = Math.max(...samples.map((s) => s.rss));
const baseline = startRss ?? samples[0]!.rss;
console.log(`soak: ${minutes} min, ${clientCount} WebSocket clients at a time (reconnecting every 20-60 s)`);
console.log(
  `  HTTP: ${counts.http} calls (${counts.httpErrors} errors); IPFS: ${counts.ipfs} (${counts.ipfsErrors} errors)`,
);
console.log(
  `  WebSocket: ${counts.wsConnects} connections (${counts.wsRefused} refused), ${counts.notifications} notifications, ${counts.gaps} head gaps`,
);
console.log(
  `  gateway RSS after warm-up ${baseline.toFixed(0)} MB, at the end ${endRss.toFixed(0)} MB, max ${maxRss.toFixed(0)} MB`,
);
console.log(`  ratio end / start: ${(endRss / baseline).toFixed(2)}`);
