/** Start a dev chain serving JSON-RPC on HTTP. */
import type { AddressInfo } from 'node:net';
import type { ChainConfig } from './chain/Chain.js';
import { DevchainNode } from './devchain.js';
import { shortString } from './felt.js';
import { resolveForkPoint } from './fork/resolveForkPoint.js';
import { createRpcServer } from './rpc/createRpcServer.js';
import { WELCOME_TIMESTAMPS } from './welcome/welcomeConstants.js';

/** Options of {@link startDevchain}. */
export interface DevchainOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (0 = a free port; default 0). */
  port?: number;
  /** Directory where the chain is persisted; a restart with the same directory keeps the chain. */
  dataDir?: string;
  /** `SN_SEPOLIA` (default), `SN_MAIN`, or a felt. */
  chainId?: string;
  /** Seed of the predeployed account keys (default 0). */
  seed?: number;
  /** Number of predeployed accounts (default 10). */
  accounts?: number;
  /** Initial STRK and ETH balance of each predeployed account (default 1e21). */
  initialBalance?: bigint;
  /**
   * Mine a block on this interval (ms), empty or not, instead of one block per transaction
   * (transactions wait in the pre-confirmed block until the next one).
   */
  blockIntervalMs?: number;
  /** Mine only on `devnet_createBlock`; transactions wait in the pre-confirmed block. */
  mineOnDemand?: boolean;
  /** Gas prices in wei and fri for l1, l1 data and l2 gas (default 1e9 each). */
  gasPrice?: bigint;
  /**
   * A new chain (no chain in `dataDir` yet) starts with the welcome state: genesis at a fixed time,
   * block 1 a STRK transfer, block 2 a DECLARE (see `seedWelcome`). A loaded chain is left as it is.
   */
  welcome?: boolean;
  /**
   * Fork the Starknet node at this JSON-RPC URL: the new chain starts after its block `forkBlock` (default: its latest
   * at start), with its chain id; state the chain never wrote is read from the origin there (once, then kept), and
   * requests about the origin's blocks and transactions are forwarded to it (see `fork/`). A chain already in
   * `dataDir` keeps the fork it was made with.
   */
  forkNetwork?: string;
  /** The origin's block to fork at (with `forkNetwork`). */
  forkBlock?: number;
}

/** A running dev chain. */
export interface RunningDevchain {
  /** JSON-RPC endpoint, e.g. `http://127.0.0.1:5050/rpc`. */
  rpcUrl: string;
  /** JSON-RPC over WebSocket with the spec 0.10 subscriptions, e.g. `ws://127.0.0.1:5050/ws`. */
  wsUrl: string;
  /** Chain id as a felt hex string. */
  chainId: string;
  /** The node (for embedding and tests). */
  node: DevchainNode;
  /** Stop serving, mine pending transactions and flush the data directory. */
  close(): Promise<void>;
}

/** Parse a chain id option (`SN_SEPOLIA`, `SN_MAIN`, other short string, or 0x felt). */
export function parseChainId(value: string | undefined): bigint {
  if (value === undefined) return shortString('SN_SEPOLIA');
  if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  if (value.length > 31) throw new Error(`invalid chain id ${value}`);
  return shortString(value);
}

/**
 * Start a dev chain.
 *
 * @example
 * const dc = await startDevchain({ port: 0 });
 * const provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
 * await dc.close();
 */
export async function startDevchain(options: DevchainOptions = {}): Promise<RunningDevchain> {
  const price = options.gasPrice ?? 1_000_000_000n;
  const unit = { l1: price, l1Data: price, l2: price };
  const fork =
    options.forkNetwork === undefined ? undefined : await resolveForkPoint(options.forkNetwork, options.forkBlock);
  const config: ChainConfig = {
    chainId: fork ? fork.chainId : parseChainId(options.chainId),
    seed: options.seed ?? 0,
    accounts: options.accounts ?? 10,
    initialBalance: options.initialBalance ?? 10n ** 21n,
    prices: { fri: { ...unit }, wei: { ...unit } },
    sequencer: 0x1000n,
    genesisTimestamp: options.welcome ? WELCOME_TIMESTAMPS.genesis : Math.floor(Date.now() / 1000),
    ...(fork ? { fork: fork.point } : {}),
  };
  const node = new DevchainNode({
    config,
    dataDir: options.dataDir,
    blockIntervalMs: options.blockIntervalMs,
    mineOnDemand: options.mineOnDemand,
    welcome: options.welcome,
  });
  const server = createRpcServer({ node });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closed = false;
  return {
    rpcUrl: `http://${urlHost}:${port}/rpc`,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    chainId: `0x${node.chain.config.chainId.toString(16)}`,
    node,
    close: async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      node.close();
    },
  };
}
