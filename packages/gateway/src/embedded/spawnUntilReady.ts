import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedProcess, stopChild } from './startAnvil.js';

/**
 * Runs `node <cli> …args --ready-file F` and resolves once F appears, with the JSON the
 * backend wrote there; `toProcess` turns it into the EmbeddedProcess. Fails with the
 * backend's last stderr if it exits first, or after `timeoutMs`.
 */
export async function spawnUntilReady(
  name: string,
  cli: string,
  args: string[],
  toProcess: (ready: Record<string, string>) => { http: string },
  timeoutMs = 60_000,
): Promise<EmbeddedProcess> {
  const tmp = await mkdtemp(join(tmpdir(), `nodegate-${name}-`));
  const readyFile = join(tmp, 'ready.json');
  const child = spawn(process.execPath, [cli, ...args, '--ready-file', readyFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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
    return { name, ...toProcess(ready), stop: () => stopChild(child, 10_000) };
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
