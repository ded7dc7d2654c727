import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild } from './startAnvil.js';
import type { StartedBackend } from './superviseBackend.js';

/**
 * Runs `node <cli> …args --ready-file F` and resolves once F appears, with the JSON the
 * backend wrote there; `toProcess` turns it into the backend's address. Fails with the
 * backend's last stderr if it exits first, or after `timeoutMs`. The child is told the
 * gateway's pid (`NODEGATE_PARENT_PID`) and exits by itself when the gateway is gone.
 */
export async function spawnUntilReady(
  name: string,
  cli: string,
  args: string[],
  toProcess: (ready: Record<string, string>) => { http: string; ws?: string },
  timeoutMs = 60_000,
): Promise<StartedBackend> {
  const tmp = await mkdtemp(join(tmpdir(), `nodegate-${name}-`));
  const readyFile = join(tmp, 'ready.json');
  const child = spawn(process.execPath, [cli, ...args, '--ready-file', readyFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODEGATE_PARENT_PID: String(process.pid) },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  try {
    const end = Date.now() + timeoutMs;
    while (!existsSync(readyFile)) {
      if (child.exitCode !== null) throw new Error(`${name} exited (code ${child.exitCode}): ${stderr}`);
      if (Date.now() > end) throw new Error(`${name} did not start within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const ready = JSON.parse(await readFile(readyFile, 'utf8')) as Record<string, string>;
    const address = toProcess(ready);
    return {
      name,
      ...address,
      pid: child.pid!,
      port: Number(new URL(address.http).port),
      exited,
      stop: () => stopChild(child, 10_000),
    };
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
