// The fork part of `npm run bench -- devchain`: a second dev chain CLI forked from the first (`--fork-network`), and
// the latency of state reads there: a first read (the fork asks the origin, synchronously) and a cached read (the
// fork answers from its copy), against the same read on the origin itself in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** p50 and p95 of one kind of call, in ms. */
export interface Latency {
  p50: number;
  p95: number;
}

/** What the fork part measures. */
export interface ForkFigures {
  startMs: number;
  origin: Latency;
  firstRead: Latency;
  cachedRead: Latency;
  reads: number;
}

async function rpcCall(url: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

function stats(samples: number[]): Latency {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)]!, p95: s[Math.floor(s.length * 0.95)]! };
}

/**
 * Forks the dev chain at `originRpc` with the CLI at `cli`, reads `reads` storage slots of `contract` that the fork
 * never read (first reads), then the same slots again (cached reads), and the same slots on the origin (baseline).
 */
export async function measureFork(cli: string, originRpc: string, contract: string, reads = 200): Promise<ForkFigures> {
  const tmp = mkdtempSync(join(tmpdir(), 'devchain-fork-bench-'));
  const ready = join(tmp, 'ready.json');
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, '--listen', '127.0.0.1:0', '--ready-file', ready, '--fork-network', originRpc],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    while (!existsSync(ready) || readFileSync(ready, 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
    const startMs = performance.now() - started;
    const { rpc } = JSON.parse(readFileSync(ready, 'utf8')) as { rpc: string };
    const keys = Array.from({ length: reads }, (_, i) => `0x${(0x7a11e000 + i).toString(16)}`);
    const time = async (url: string) => {
      const samples: number[] = [];
      for (const key of keys) {
        const t = performance.now();
        await rpcCall(url, 'starknet_getStorageAt', { contract_address: contract, key, block_id: 'latest' });
        samples.push(performance.now() - t);
      }
      return stats(samples);
    };
    const origin = await time(originRpc);
    const firstRead = await time(rpc);
    const cachedRead = await time(rpc);
    return { startMs, origin, firstRead, cachedRead, reads };
  } finally {
    child.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
}
