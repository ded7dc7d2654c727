import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StartedBackend } from './superviseBackend.js';
import { spawnUntilReady } from './spawnUntilReady.js';

const require = createRequire(import.meta.url);

/**
 * Starts nodegate's Starknet dev chain (packages/starknet-devchain) as its own process on a
 * free loopback port, keeping its chain in `dataDir`, and resolves once it serves.
 *
 * @example
 * const dc = await startStarknetDevchain({ dataDir: '/tmp/chain', blockTime: 1 }); // a block every second
 * await dc.stop();
 */
export async function startStarknetDevchain(options: {
  dataDir: string;
  chainId?: string;
  port?: number;
  /**
   * Seconds between blocks, mined empty or not (the dev chain's own `--block-interval`, in ms);
   * transactions wait for the next block. Absent: one block per transaction, none without one.
   */
  blockTime?: number;
  /**
   * A new chain (nothing in `dataDir` yet) starts with the dev chain's welcome state (its
   * `--welcome`: a STRK transfer in block 1, a DECLARE in block 2, fixed hashes); a chain already
   * there is loaded as it is.
   */
  welcome?: boolean;
  /**
   * Start on top of the Starknet node at this JSON-RPC URL (the dev chain's `--fork-network`): its blocks up to
   * `forkBlock` (default: its latest) are the origin's, state never written locally is read from there. A chain
   * already in `dataDir` keeps the fork it was made with.
   */
  forkNetwork?: string;
  /** The origin's block to fork at (`--fork-block`). */
  forkBlock?: number;
}): Promise<StartedBackend> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const args = ['--listen', `127.0.0.1:${options.port ?? 0}`, '--data-dir', options.dataDir];
  if (options.chainId) args.push('--chain-id', options.chainId);
  if (options.welcome) args.push('--welcome');
  if (options.forkNetwork !== undefined) args.push('--fork-network', options.forkNetwork);
  if (options.forkBlock !== undefined) args.push('--fork-block', String(options.forkBlock));
  if (options.blockTime !== undefined) args.push('--block-interval', String(Math.round(options.blockTime * 1000)));
  return spawnUntilReady('starknet-devchain', devchainCli(), args, (ready) => ({
    http: ready.rpc!,
    ...(ready.ws === undefined ? {} : { ws: ready.ws }),
  }));
}

/** The dev chain's CLI script. */
export function devchainCli(): string {
  return join(dirname(require.resolve('@nodegate/starknet-devchain')), 'cli.js');
}
