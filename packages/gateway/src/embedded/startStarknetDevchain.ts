import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type EmbeddedProcess, stopChild } from './startAnvil.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's Starknet dev chain (packages/starknet-devchain) as its own process on a
 * free loopback port, keeping its chain in `dataDir`, and resolves once it serves.
 */
export async function startStarknetDevchain(options: { dataDir: string; chainId?: string }): Promise<EmbeddedProcess> {
  const cli = join(dirname(require.resolve('@nodegate/starknet-devchain')), 'cli.js');
  await mkdir(options.dataDir, { recursive: true });
  const tmp = await mkdtemp(join(tmpdir(), 'nodegate-devchain-'));
  const readyFile = join(tmp, 'ready.json');
  const args = [cli, '--listen', '127.0.0.1:0', '--data-dir', options.dataDir, '--ready-file', readyFile];
  if (options.chainId) args.push('--chain-id', options.chainId);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  try {
    const end = Date.now() + 60_000;
    while (!existsSync(readyFile)) {
      if (child.exitCode !== null) throw new Error(`the Starknet dev chain exited (code ${child.exitCode}): ${stderr}`);
      if (Date.now() > end) throw new Error('the Starknet dev chain did not start within 60 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    const ready = JSON.parse(await readFile(readyFile, 'utf8')) as { rpc: string };
    return { name: 'starknet-devchain', http: ready.rpc, stop: () => stopChild(child, 10_000) };
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
