import { invalidParam } from './lib/errors';

/** Chain id of Starknet mainnet (`SN_MAIN`). */
export const MAINNET_CHAIN_ID = '0x534e5f4d41494e';
/** Chain id of the Starknet test network (`SN_SEPOLIA`); the default network. */
export const TESTNET_CHAIN_ID = '0x534e5f5345504f4c4941';

/** The canonical STRK token, the fee token of v3 transactions (same address on every network and on dev chains). */
export const STRK_TOKEN_ADDRESS = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

/** One network the snap can use, fixed at build time. */
export interface NetworkConfig {
  /** Hex chain id, as callers pass it in `chainId`. */
  readonly chainId: string;
  /** Human-readable name shown in dialogs. */
  readonly name: string;
  /** JSON-RPC URL of nodegate's Starknet endpoint: `<base>/v3/<key>`, or the base itself when no key is set. */
  readonly rpcUrl: string;
  /** Class hash of the account contract new accounts are deployed with (also used to compute addresses). */
  readonly accountClassHash: string;
  /** Class hash of the newest account class, the target of `stk_upgradeAccContract`. */
  readonly latestAccountClassHash: string;
}

/**
 * Joins a nodegate network base URL and an API key into the JSON-RPC URL (`<base>/v3/<key>`).
 * With an empty key the base URL is used as it is (a node spoken to directly, for development).
 *
 * @param base - The network's base URL, e.g. `http://127.0.0.1:8550/starknet-devnet`.
 * @param apiKey - The nodegate API key, or an empty string.
 * @returns The JSON-RPC URL.
 * @example
 * ```ts
 * rpcUrlOf('http://127.0.0.1:8550/starknet-devnet', 'k1'); // 'http://127.0.0.1:8550/starknet-devnet/v3/k1'
 * ```
 */
export function rpcUrlOf(base: string, apiKey: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return apiKey ? `${trimmed}/v3/${apiKey}` : trimmed;
}

// Every `process.env.X` below is replaced with a literal by the snap bundler (see snap.config.ts).
function network(
  chainId: string,
  name: string,
  base: string | undefined,
  apiKey: string | undefined,
  classHash: string | undefined,
  latestClassHash: string | undefined,
): NetworkConfig {
  const accountClassHash = classHash || ARGENT_ACCOUNT_CLASS_HASH;
  return Object.freeze({
    chainId,
    name,
    rpcUrl: rpcUrlOf(base || '', apiKey || ''),
    accountClassHash,
    latestAccountClassHash: latestClassHash || accountClassHash,
  });
}

/** Class hash of the canonical Argent Cairo 1 account, the default account class. */
export const ARGENT_ACCOUNT_CLASS_HASH = '0x029927c8af6bccf3f6fda035981e765a7bdbf18a2dc0d630494f8758aa908e2b';

/** The networks this build knows, by chain id. */
export const NETWORKS: Readonly<Record<string, NetworkConfig>> = Object.freeze({
  [MAINNET_CHAIN_ID]: network(
    MAINNET_CHAIN_ID,
    'Starknet Mainnet',
    process.env.SNAP_MAINNET_URL,
    process.env.SNAP_MAINNET_API_KEY,
    process.env.SNAP_MAINNET_ACCOUNT_CLASS_HASH,
    process.env.SNAP_MAINNET_LATEST_ACCOUNT_CLASS_HASH,
  ),
  [TESTNET_CHAIN_ID]: network(
    TESTNET_CHAIN_ID,
    'Starknet Sepolia',
    process.env.SNAP_SEPOLIA_URL,
    process.env.SNAP_SEPOLIA_API_KEY,
    process.env.SNAP_SEPOLIA_ACCOUNT_CLASS_HASH,
    process.env.SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH,
  ),
});

/**
 * Resolves the `chainId` parameter to a network; absent means the test network.
 *
 * @param chainId - The caller's `chainId` (hex string) or undefined.
 * @returns The network.
 * @throws -32602 naming `chainId` when the chain id is not a string or not configured.
 * @example
 * ```ts
 * getNetwork(undefined).chainId; // '0x534e5f5345504f4c4941'
 * ```
 */
export function getNetwork(chainId: unknown): NetworkConfig {
  if (chainId === undefined || chainId === null) return NETWORKS[TESTNET_CHAIN_ID]!;
  if (typeof chainId !== 'string') throw invalidParam('chainId', 'must be a hex string');
  const key = chainId.toLowerCase();
  const net = Object.values(NETWORKS).find((n) => n.chainId === key);
  if (!net) {
    throw invalidParam(
      'chainId',
      `unknown network ${chainId}; this build knows ${Object.values(NETWORKS)
        .map((n) => `${n.chainId} (${n.name})`)
        .join(' and ')}`,
    );
  }
  if (!net.rpcUrl) {
    throw invalidParam(
      'chainId',
      `network ${net.name} has no nodegate URL in this build (build with its SNAP_*_URL; the default gateway serves only the test network)`,
    );
  }
  return net;
}

/**
 * The wallet's selected network: the stored selection (stk_switchNetwork), or the test network until one is chosen
 * (or when the stored one is not in this build).
 *
 * @param selected - The stored `selectedChainId`, if any.
 * @returns The network.
 * @example
 * ```ts
 * selectedNetwork(undefined).chainId; // '0x534e5f5345504f4c4941'
 * ```
 */
export function selectedNetwork(selected: string | undefined): NetworkConfig {
  return (selected ? NETWORKS[selected] : undefined) ?? NETWORKS[TESTNET_CHAIN_ID]!;
}
