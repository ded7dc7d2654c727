import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

it('nodegate-ipfs-node serves, writes the ready file and stops on SIGTERM', { timeout: 30_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ipfs-node-cli-'));
  const ready = join(dir, 'ready.json');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'cli.ts'),
      '--listen',
      '127.0.0.1:0',
      '--repo',
      join(dir, 'repo'),
      '--ready-file',
      ready,
      '--sharding-threshold',
      '262144',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  try {
    const deadline = Date.now() + 20_000;
    while (!(await stat(ready).catch(() => undefined)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const { api } = JSON.parse(await readFile(ready, 'utf8')) as { api: string };
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain(`${api}/api/v0/`);
    const res = await fetch(`${api}/api/v0/version`, { method: 'POST' });
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    await expect(stat(join(dir, 'repo', 'repo.lock'))).rejects.toThrow();
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});
