import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbeddedProcess } from './startAnvil.js';
import { spawnUntilReady } from './spawnUntilReady.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's Starknet dev chain (packages/starknet-devchain) as its own process on a
 * free loopback port, keeping its chain in `dataDir`, and resolves once it serves.
 */
export async function startStarknetDevchain(options: { dataDir: string; chainId?: string }): Promise<EmbeddedProcess> {
  const cli = join(dirname(require.resolve('@nodegate/starknet-devchain')), 'cli.js');
  await mkdir(options.dataDir, { recursive: true });
  const args = ['--listen', '127.0.0.1:0', '--data-dir', options.dataDir];
  if (options.chainId) args.push('--chain-id', options.chainId);
  return spawnUntilReady('starknet-devchain', cli, args, (ready) => ({ http: ready.rpc! }));
}
