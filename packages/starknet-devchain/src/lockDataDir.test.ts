import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevchain } from './startDevchain.js';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devchain-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one dev chain per data directory', () => {
  it('a second dev chain on a directory in use is refused, naming the holder; a stale lock is taken over', async () => {
    const data = join(dir, 'chain');
    const ready = join(dir, 'ready.json');
    const first = spawn(process.execPath, [CLI, '--listen', '127.0.0.1:0', '--data-dir', data, '--ready-file', ready], {
      stdio: 'ignore',
    });
    for (let i = 0; !existsSync(ready); i++) {
      if (i > 600) throw new Error('the first dev chain did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    await expect(startDevchain({ port: 0, dataDir: data })).rejects.toThrow(
      `the data directory ${data} is in use by another dev chain (process ${first.pid})`,
    );
    // killed without a chance to unlock: the lock names a dead process and is taken over
    await new Promise((resolve) => {
      first.once('exit', resolve);
      first.kill('SIGKILL');
    });
    expect(existsSync(join(data, 'devchain.lock'))).toBe(true);
    const second = await startDevchain({ port: 0, dataDir: data });
    await second.close();
    expect(existsSync(join(data, 'devchain.lock'))).toBe(false);
  });
});
