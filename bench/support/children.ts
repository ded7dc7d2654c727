import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Spawns a child and resolves with the first JSON line it prints on stdout. */
export function spawnJsonLine(cmd: string, args: string[]): Promise<{ child: ChildProcess; value: any }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        try {
          resolve({ child, value: JSON.parse(buf.slice(0, nl)) });
        } catch (err) {
          reject(err);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`${cmd} exited with ${code}`)));
  });
}

/** Spawns a child and resolves once it has written `file` (a ready file). */
export async function spawnUntilFile(
  cmd: string,
  args: string[],
  file: string,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; value: any }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const end = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited with ${child.exitCode}`);
    if (Date.now() > end) throw new Error(`${file} did not appear`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, value: JSON.parse(await readFile(file, 'utf8')) };
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
