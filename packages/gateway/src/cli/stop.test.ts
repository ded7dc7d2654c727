import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A clean stop as a terminal makes it: `nodegate start` on the embedded defaults in a process
// group of its own, and SIGINT (Ctrl-C) or SIGTERM sent to the whole group, so the backends get
// it too, often before the gateway's handler runs.
const BIN = new URL('../../bin/nodegate.mjs', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-stop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startAndStopGroup(dataDir: string, signal: NodeJS.Signals) {
  const readyFile = join(dir, `ready-${Date.now()}.json`);
  const child = spawn(
    process.execPath,
    [BIN, 'start', '--listen', '127.0.0.1:0', '--data-dir', dataDir, '--ready-file', readyFile],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, sig) => resolve({ code, signal: sig })),
  );
  for (let i = 0; !existsSync(readyFile); i++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited: ${stderr}`);
    if (i > 1200) throw new Error(`the gateway did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const pids: number[] = [];
  for (const backend of ['anvil', 'starknet-devchain', 'ipfs']) {
    const text = await readFile(join(dataDir, backend, 'nodegate-child.pid'), 'utf8');
    pids.push((JSON.parse(text) as { pid: number }).pid);
  }
  process.kill(-child.pid!, signal); // the whole group, as a terminal does
  const exit = await exited;
  // what a restart would have written arrives within its backoff: give it the time
  await new Promise((r) => setTimeout(r, 500));
  return { exit, stdout, stderr, pids };
}

describe('nodegate start stops cleanly', () => {
  it('SIGINT to the process group (Ctrl-C), twice, then SIGTERM to it: exit 0, no restart warning, nothing left running', async () => {
    const dataDir = join(dir, 'data');
    for (const signal of ['SIGINT', 'SIGINT', 'SIGTERM'] as const) {
      const run = await startAndStopGroup(dataDir, signal);
      expect(run.exit, run.stderr).toEqual({ code: 0, signal: null });
      expect(run.stdout).toContain(`nodegate: ${signal} received, stopping…`);
      expect(run.stdout).toContain('nodegate: stopped');
      expect(run.stderr).not.toMatch(/restart/i);
      // a quiet terminal: nothing at all on stderr for a clean start and stop
      expect(run.stderr).toBe('');
      for (const pid of run.pids) expect(alive(pid), `backend pid ${pid}`).toBe(false);
    }
  }, 240_000);
});
