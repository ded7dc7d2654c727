// npm run bench -- devchain [--txs N] [--events N]
// Starts the dev chain CLI (packages/starknet-devchain/dist/cli.js) as a child process, then:
//  1. sustained signed INVOKE transfers per second: starknet.js-style v3 payloads (hashed with
//     starknet.js, signed with its stark curve), pre-signed, one lane per sender account;
//     baseline: starknet_chainId requests per second over the same lanes in the same run;
//  2. getEvents latency for one 1024-event page over >= 100k stored events (filled by multicall
//     transfers); baseline: starknet_blockNumber latency in the same run;
//  3. a second dev chain forked from the first (--fork-network): getStorageAt latency of a first read (asked of
//     the origin) and of a cached read; baseline: the same reads on the origin in the same run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ec, hash, num, v3hash } from 'starknet';
import { measureFork } from './support/devchainFork.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TXS = arg('--txs', 1000);
const EVENTS = arg('--events', 100_000);
const LANES = 10;
const CHAIN = '0x534e5f5345504f4c4941';
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const root = new URL('..', import.meta.url).pathname;

const tmp = mkdtempSync(join(tmpdir(), 'devchain-bench-'));
const ready = join(tmp, 'ready.json');
const child = spawn(
  process.execPath,
  [
    join(root, 'packages/starknet-devchain/dist/cli.js'),
    '--listen',
    '127.0.0.1:0',
    '--ready-file',
    ready,
    '--accounts',
    String(LANES + 2),
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
process.on('exit', () => {
  child.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});
while (!existsSync(ready) || readFileSync(ready, 'utf8') === '') await new Promise((r) => setTimeout(r, 50));
const { rpc } = JSON.parse(readFileSync(ready, 'utf8')) as { rpc: string };

// Server CPU time (user + system) from /proc, so figures survive a busy shared machine.
function serverCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

let id = 0;
async function call(method: string, params: unknown = {}): Promise<any> {
  const res = await fetch(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  if (body.error)
    throw new Error(`${method}: ${body.error.code} ${body.error.message} ${JSON.stringify(body.error.data)}`);
  return body.result;
}

const bounds = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 2_000_000_000n },
  l2_gas: { max_amount: 100_000_000n, max_price_per_unit: 2_000_000_000n },
  l1_data_gas: { max_amount: 100_000n, max_price_per_unit: 2_000_000_000n },
};
const hexBounds = Object.fromEntries(
  Object.entries(bounds).map(([k, v]) => [
    k,
    { max_amount: num.toHex(v.max_amount), max_price_per_unit: num.toHex(v.max_price_per_unit) },
  ]),
);

function signedInvoke(sender: string, pk: string, nonce: bigint, calldata: string[]) {
  const h = v3hash.calculateInvokeTransactionHash(
    sender,
    '0x3',
    calldata,
    CHAIN,
    nonce,
    [],
    0 as any,
    0 as any,
    bounds as any,
    0n,
    [],
  );
  const sig = ec.starkCurve.sign(h, pk);
  return {
    type: 'INVOKE',
    sender_address: sender,
    calldata,
    version: '0x3',
    signature: [num.toHex(sig.r), num.toHex(sig.s)],
    nonce: num.toHex(nonce),
    resource_bounds: hexBounds,
    tip: '0x0',
    paymaster_data: [],
    account_deployment_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
  };
}

function transfers(recipients: string[], count: number, offset: number): string[] {
  const out = [num.toHex(count)];
  const sel = hash.getSelectorFromName('transfer');
  for (let i = 0; i < count; i++)
    out.push(STRK, sel, '0x3', recipients[(i + offset) % recipients.length]!, num.toHex(i + 1), '0x0');
  return out;
}

const accounts: { address: string; private_key: string }[] = await call('devnet_getPredeployedAccounts');
const recipients = accounts.map((a) => a.address);
const lanes = accounts.slice(0, LANES);
const nonces = new Map(lanes.map((a) => [a.address, 0n]));

// Baseline: a trivial method over the same lanes.
const baseStart = performance.now();
let baseCount = 0;
await Promise.all(
  lanes.map(async () => {
    while (performance.now() - baseStart < 2000) {
      await call('starknet_chainId');
      baseCount++;
    }
  }),
);
const baseRps = baseCount / ((performance.now() - baseStart) / 1000);

// 1. Sustained signed transfers.
process.stderr.write(`pre-signing ${TXS} INVOKE transfers…\n`);
const perLane = Math.ceil(TXS / LANES);
const signed = lanes.map((a, li) =>
  Array.from({ length: perLane }, (_, i) => {
    const n = nonces.get(a.address)!;
    nonces.set(a.address, n + 1n);
    return signedInvoke(a.address, a.private_key, n, transfers(recipients, 1, li + i));
  }),
);
const t0 = performance.now();
const cpu0 = serverCpuMs();
await Promise.all(
  signed.map(async (txs) => {
    for (const tx of txs) await call('starknet_addInvokeTransaction', { invoke_transaction: tx });
  }),
);
const txSeconds = (performance.now() - t0) / 1000;
const txCpuMs = (serverCpuMs() - cpu0) / (perLane * LANES);
const tps = (perLane * LANES) / txSeconds;
const latest = await call('starknet_blockNumber');

// 2. Fill events with multicalls (200 transfers + fee = 201 events per transaction).
let stored = (await call('starknet_getEvents', { filter: { chunk_size: 1024 } })).events.length;
const countAll = async () => {
  let n = 0;
  let token: string | undefined;
  do {
    const r = await call('starknet_getEvents', {
      filter: { chunk_size: 1024, ...(token ? { continuation_token: token } : {}) },
    });
    n += r.events.length;
    token = r.continuation_token;
  } while (token);
  return n;
};
stored = await countAll();
process.stderr.write(`filling to ${EVENTS} events (have ${stored})…\n`);
const fillStart = performance.now();
const perTx = 200;
const needTxs = Math.max(0, Math.ceil((EVENTS - stored) / (perTx + 1)));
await Promise.all(
  lanes.map(async (a, li) => {
    for (let i = li; i < needTxs; i += LANES) {
      const n = nonces.get(a.address)!;
      nonces.set(a.address, n + 1n);
      await call('starknet_addInvokeTransaction', {
        invoke_transaction: signedInvoke(a.address, a.private_key, n, transfers(recipients, perTx, i)),
      });
    }
  }),
);
const fillSeconds = (performance.now() - fillStart) / 1000;
stored = await countAll();

async function timed(fn: () => Promise<unknown>, n: number): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(n / 2)]!, p95: samples[Math.floor(n * 0.95)]! };
}

const head = await call('starknet_blockNumber');
const midToken = `${Math.floor(head / 2)}-0`;
const baseLatency = await timed(() => call('starknet_blockNumber'), 100);
const cpuPages0 = serverCpuMs();
const firstPage = await timed(
  () =>
    call('starknet_getEvents', { filter: { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 1024 } }),
  50,
);
const midPage = await timed(
  () =>
    call('starknet_getEvents', {
      filter: { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 1024, continuation_token: midToken },
    }),
  50,
);
const pageCpuMs = (serverCpuMs() - cpuPages0) / 100;
const filtered = await timed(
  () =>
    call('starknet_getEvents', {
      filter: {
        from_block: { block_number: 0 },
        to_block: 'latest',
        address: STRK,
        keys: [[hash.getSelectorFromName('Transfer')]],
        chunk_size: 1024,
        continuation_token: midToken,
      },
    }),
  50,
);
const sparse = await timed(
  () =>
    call('starknet_getEvents', {
      filter: {
        from_block: { block_number: 0 },
        to_block: 'latest',
        keys: [[hash.getSelectorFromName('Approval')]],
        chunk_size: 1024,
      },
    }),
  20,
);

process.stderr.write('forking the chain…\n');
const fork = await measureFork(join(root, 'packages/starknet-devchain/dist/cli.js'), rpc, STRK);

const f = (x: number) => x.toFixed(1);
const lines = [
  'devchain benchmark (one dev chain child process; client in this process)',
  `  baseline starknet_chainId, ${LANES} lanes:             ${f(baseRps)} req/s`,
  `  signed INVOKE transfers, ${LANES} lanes:               ${f(tps)} tx/s (${perLane * LANES} txs in ${f(txSeconds)} s, ${latest} blocks; ratio to baseline ${(tps / baseRps).toFixed(3)})`,
  `  server CPU per signed transfer:                     ${txCpuMs.toFixed(2)} ms (about ${f(1000 / txCpuMs)} tx/s per idle core)`,
  `  event fill: ${needTxs} multicall txs of ${perTx} transfers in ${f(fillSeconds)} s; stored events: ${stored}`,
  `  baseline starknet_blockNumber latency:              p50 ${f(baseLatency.p50)} ms, p95 ${f(baseLatency.p95)} ms`,
  `  getEvents 1024-event page, first page:              p50 ${f(firstPage.p50)} ms, p95 ${f(firstPage.p95)} ms (ratio to baseline ${(firstPage.p50 / baseLatency.p50).toFixed(1)}x)`,
  `  getEvents 1024-event page, mid-chain token:         p50 ${f(midPage.p50)} ms, p95 ${f(midPage.p95)} ms`,
  `  server CPU per 1024-event page (first and mid):     ${pageCpuMs.toFixed(2)} ms`,
  `  getEvents 1024-event page, address+key, mid token:  p50 ${f(filtered.p50)} ms, p95 ${f(filtered.p95)} ms`,
  `  getEvents no match (full scan of ${stored} events): p50 ${f(sparse.p50)} ms, p95 ${f(sparse.p95)} ms`,
  `  forked chain: started on the chain above in ${f(fork.startMs)} ms`,
  `  baseline getStorageAt on the origin:                p50 ${f(fork.origin.p50)} ms, p95 ${f(fork.origin.p95)} ms (${fork.reads} slots)`,
  `  forked getStorageAt, first read (asks the origin):  p50 ${f(fork.firstRead.p50)} ms, p95 ${f(fork.firstRead.p95)} ms (ratio to baseline ${(fork.firstRead.p50 / fork.origin.p50).toFixed(1)}x)`,
  `  forked getStorageAt, cached read:                   p50 ${f(fork.cachedRead.p50)} ms, p95 ${f(fork.cachedRead.p95)} ms (ratio to baseline ${(fork.cachedRead.p50 / fork.origin.p50).toFixed(1)}x)`,
];
console.log(lines.join('\n'));
child.kill('SIGTERM');
process.exit(0);
