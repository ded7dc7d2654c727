import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StartedBackend } from './superviseBackend.js';
import { spawnUntilReady } from './spawnUntilReady.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's embedded IPFS node (packages/ipfs-node, Kubo RPC API) as its own process
 * on a free loopback port with its repo in `repo`; resolves once it serves. `http` is the
 * API base (`http://127.0.0.1:PORT`, commands under `/api/v0/`).
 */
export async function startIpfsNode(options: { repo: string; port?: number }): Promise<StartedBackend> {
  await mkdir(options.repo, { recursive: true, mode: 0o700 });
  const args = ['--listen', `127.0.0.1:${options.port ?? 0}`, '--repo', options.repo];
  return spawnUntilReady('ipfs-node', ipfsNodeCli(), args, (ready) => ({ http: ready.api! }));
}

/** The IPFS node's CLI script. */
export function ipfsNodeCli(): string {
  return join(dirname(require.resolve('@nodegate/ipfs-node')), 'cli.js');
}
