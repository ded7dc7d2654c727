import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type EmbeddedProcess, stopChild } from './startAnvil.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's embedded IPFS node (packages/ipfs-node, Kubo RPC API) as its own process
 * on a free loopback port with its repo in `repo`; resolves once it serves. `http` is the
 * API base (`http://127.0.0.1:PORT`, commands under `/api/v0/`).
 */
export async function startIpfsNode(options: { repo: string }): Promise<EmbeddedProcess> {
  const cli = join(dirname(require.resolve('@nodegate/ipfs-node')), 'cli.js');
  await mkdir(options.repo, { recursive: true });
  const tmp = await mkdtemp(join(tmpdir(), 'nodegate-ipfs-'));
  const readyFile = join(tmp, 'ready.json');
  const child = spawn(process.execPath, [cli, '--listen', '127.0.0.1:0', '--repo', options.repo, '--ready-file', readyFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  try {
    const end = Date.now() + 60_000;
    while (!existsSync(readyFile)) {
      if (child.exitCode !== null) throw new Error(`the IPFS node exited (code ${child.exitCode}): ${stderr}`);
      if (Date.now() > end) throw new Error('the IPFS node did not start within 60 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    const ready = JSON.parse(await readFile(readyFile, 'utf8')) as { api: string };
    return { name: 'ipfs-node', http: ready.api, stop: () => stopChild(child, 10_000) };
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
