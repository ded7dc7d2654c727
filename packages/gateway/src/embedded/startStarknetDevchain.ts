import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StartedBackend } from './superviseBackend.js';
import { spawnUntilReady } from './spawnUntilReady.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's Starknet dev chain (packages/starknet-devchain) as its own process on a
 * free loopback port, keeping its chain in `dataDir`, and resolves once it serves.
 */
export async function startStarknetDevchain(options: {
  dataDir: string;
  chainId?: string;
  port?: number;
}): Promise<StartedBackend> {
  await mkdir(options.dataDir, { recursive: true });
  const args = ['--listen', `127.0.0.1:${options.port ?? 0}`, '--data-dir', options.dataDir];
  if (options.chainId) args.push('--chain-id', options.chainId);
  return spawnUntilReady('starknet-devchain', devchainCli(), args, (ready) => ({
    http: ready.rpc!,
    ...(ready.ws === undefined ? {} : { ws: ready.ws }),
  }));
}

/** The dev chain's CLI script. */
export function devchainCli(): string {
  return join(dirname(require.resolve('@nodegate/starknet-devchain')), 'cli.js');
}
