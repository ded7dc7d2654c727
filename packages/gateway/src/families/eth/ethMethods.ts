import type { MethodPolicy } from '../types.js';
import { withMultiplexable } from '../withMultiplexable.js';
import { contractsAt } from './contractsAt.js';
import { restoreProofKeys } from './eth_getProof.js';
import { eth_getTransactionByBlockNumberAndIndex as pendingTransactionByIndex } from './eth_getTransactionByBlockNumberAndIndex.js';
import { normalizePendingBlock, normalizeTransactionByHash } from './normalizePending.js';
import {
  arrayOf,
  p,
  parseAddress,
  parseAny,
  parseBlockCount,
  parseBlockOrHash,
  parseBlockTag,
  parseBool,
  parseCallObject,
  parseData,
  parseFilterId,
  parseHash,
  parseLogFilter,
  parsePercentiles,
  parseStorageKey,
  parseStoragePosition,
  parseSubscriptionKind,
  parseUint64,
} from './params.js';

const address = p('address', parseAddress);
const blockHash = p('block hash', parseHash);
const txHash = p('transaction hash', parseHash);
const block = p('block parameter', parseBlockTag);
const blockOrHash = p('block parameter', parseBlockOrHash);
const fullTx = p('transaction details flag', parseBool);
const index = p('transaction index', parseUint64);
const callObject = p('transaction call object', parseCallObject);

const isPending = (params: readonly unknown[]): boolean => params[0] === 'pending';

// Where a row's params name addresses, for the contract allowlist (MethodTraits.contracts).
const addressAt0 = contractsAt({ at: 0, holds: 'address' });
const filterAt0 = contractsAt({ at: 0, holds: 'logFilter' });

/**
 * The Ethereum method table: every eth_/net_/web3_ method nodegate serves, with its params
 * schema, kind, credit cost and cache policy. A method not in this table answers -32601 and
 * never reaches an upstream. The first seven rows are the seed methods of the interface. Every
 * row gets `multiplexable` from its kind (`withMultiplexable`).
 */
export const ethMethods = withMultiplexable({
  eth_getStorageAt: {
    params: [address, p('storage position', parseStoragePosition), blockOrHash],
    required: 3,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: addressAt0,
  },
  eth_getBlockByHash: {
    params: [blockHash, fullTx],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'immutable',
    forwardable: true,
  },
  eth_getBlockByNumber: {
    params: [block, fullTx],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    normalizer: (params) => (isPending(params) ? normalizePendingBlock : undefined),
  },
  eth_getTransactionByHash: {
    params: [txHash],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'immutable',
    forwardable: true,
    normalizer: () => normalizeTransactionByHash,
  },
  eth_getTransactionByBlockHashAndIndex: {
    params: [blockHash, index],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'immutable',
    forwardable: true,
  },
  eth_getTransactionByBlockNumberAndIndex: {
    params: [block, index],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    reroute: (params) => (isPending(params) ? pendingTransactionByIndex(params[1] as string) : undefined),
  },
  eth_getProof: {
    params: [address, p('storage keys', arrayOf(parseStorageKey, 'storage keys')), blockOrHash],
    required: 3,
    kind: 'read',
    credits: 150,
    cache: 'by-block',
    contracts: addressAt0,
    normalizer: (params) => (r) => restoreProofKeys(r, params),
  },

  // The rest of the standard execution API.
  eth_blockNumber: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  eth_chainId: { params: [], required: 0, kind: 'read', credits: 5, cache: 'immutable' },
  eth_syncing: { params: [], required: 0, kind: 'read', credits: 5, cache: 'head' },
  eth_gasPrice: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  eth_maxPriorityFeePerGas: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  eth_blobBaseFee: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  eth_feeHistory: {
    params: [
      p('block count', parseBlockCount),
      p('newest block', parseBlockTag),
      p('reward percentiles', parsePercentiles),
    ],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'head',
  },
  eth_getBalance: {
    params: [address, blockOrHash],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: addressAt0,
  },
  eth_getCode: {
    params: [address, blockOrHash],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: addressAt0,
  },
  eth_getTransactionCount: {
    params: [address, blockOrHash],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: addressAt0,
  },
  eth_call: {
    params: [callObject, blockOrHash, p('state overrides', parseAny), p('block overrides', parseAny)],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: contractsAt(
      { at: 0, holds: 'call' },
      { at: 2, holds: 'stateOverrides' },
      { at: 3, holds: 'blockOverrides' },
    ),
  },
  eth_estimateGas: {
    params: [callObject, blockOrHash, p('state overrides', parseAny)],
    required: 1,
    kind: 'read',
    credits: 300,
    heavy: true,
    cache: 'never',
    contracts: contractsAt({ at: 0, holds: 'call' }, { at: 2, holds: 'stateOverrides' }),
  },
  eth_createAccessList: {
    params: [callObject, blockOrHash],
    required: 1,
    kind: 'read',
    credits: 80,
    cache: 'by-block',
    contracts: contractsAt({ at: 0, holds: 'call' }),
  },
  eth_getTransactionReceipt: { params: [txHash], required: 1, kind: 'read', credits: 80, cache: 'immutable' },
  eth_getBlockReceipts: {
    params: [blockOrHash],
    required: 1,
    kind: 'read',
    credits: 1000,
    heavy: true,
    cache: 'by-block',
  },
  eth_getLogs: {
    params: [p('filter', parseLogFilter)],
    required: 1,
    kind: 'read',
    credits: 255,
    heavy: true,
    cache: 'by-block',
    contracts: filterAt0,
  },
  eth_sendRawTransaction: {
    params: [p('signed transaction', parseData)],
    required: 1,
    kind: 'write',
    credits: 80,
    cache: 'never',
  },
  eth_getBlockTransactionCountByHash: {
    params: [blockHash],
    required: 1,
    kind: 'read',
    credits: 150,
    cache: 'immutable',
  },
  eth_getBlockTransactionCountByNumber: {
    params: [block],
    required: 1,
    kind: 'read',
    credits: 150,
    cache: 'by-block',
  },
  eth_getUncleByBlockHashAndIndex: {
    params: [blockHash, p('uncle index', parseUint64)],
    required: 2,
    kind: 'read',
    credits: 150,
    cache: 'immutable',
  },
  eth_getUncleByBlockNumberAndIndex: {
    params: [block, p('uncle index', parseUint64)],
    required: 2,
    kind: 'read',
    credits: 150,
    cache: 'by-block',
  },
  eth_getUncleCountByBlockHash: { params: [blockHash], required: 1, kind: 'read', credits: 150, cache: 'immutable' },
  eth_getUncleCountByBlockNumber: { params: [block], required: 1, kind: 'read', credits: 150, cache: 'by-block' },
  eth_accounts: { params: [], required: 0, kind: 'read', credits: 80, cache: 'never' },
  eth_protocolVersion: { params: [], required: 0, kind: 'read', credits: 5, cache: 'immutable' },
  eth_mining: { params: [], required: 0, kind: 'read', credits: 5, cache: 'head' },
  eth_hashrate: { params: [], required: 0, kind: 'read', credits: 5, cache: 'head' },
  eth_coinbase: { params: [], required: 0, kind: 'read', credits: 5, cache: 'head' },

  // Filters: the gateway's registry (filters/) keeps each filter's key and the upstream that holds it.
  eth_newFilter: {
    params: [p('filter', parseLogFilter)],
    required: 1,
    kind: 'filter',
    credits: 80,
    cache: 'never',
    contracts: filterAt0,
    filter: { op: 'install', kind: 'logs' },
  },
  eth_newBlockFilter: {
    params: [],
    required: 0,
    kind: 'filter',
    credits: 80,
    cache: 'never',
    filter: { op: 'install', kind: 'blocks' },
  },
  eth_newPendingTransactionFilter: {
    params: [],
    required: 0,
    kind: 'filter',
    credits: 80,
    cache: 'never',
    filter: { op: 'install', kind: 'transactions' },
  },
  eth_getFilterChanges: {
    params: [p('filter id', parseFilterId)],
    required: 1,
    kind: 'filter',
    credits: 140,
    cache: 'never',
    filter: { op: 'read' },
  },
  eth_getFilterLogs: {
    params: [p('filter id', parseFilterId)],
    required: 1,
    kind: 'filter',
    credits: 255,
    heavy: true,
    cache: 'never',
    filter: { op: 'read' },
  },
  eth_uninstallFilter: {
    params: [p('filter id', parseFilterId)],
    required: 1,
    kind: 'filter',
    credits: 80,
    cache: 'never',
    filter: { op: 'uninstall' },
  },

  // Subscriptions: WebSocket only.
  eth_subscribe: {
    params: [p('subscription type', parseSubscriptionKind), p('subscription options', parseAny)],
    required: 1,
    kind: 'subscription',
    credits: 5,
    cache: 'never',
    contracts: contractsAt({ at: 1, holds: 'logsSubscription' }),
    wsOnly: true,
  },
  eth_unsubscribe: {
    params: [p('subscription id', parseFilterId)],
    required: 1,
    kind: 'subscription',
    credits: 10,
    cache: 'never',
    wsOnly: true,
  },

  net_version: { params: [], required: 0, kind: 'read', credits: 5, cache: 'immutable' },
  net_listening: { params: [], required: 0, kind: 'read', credits: 5, cache: 'head' },
  net_peerCount: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  web3_clientVersion: { params: [], required: 0, kind: 'read', credits: 80, cache: 'head' },
  web3_sha3: { params: [p('data', parseData)], required: 1, kind: 'read', credits: 80, cache: 'immutable' },

  // Signing with node-held keys: only dev chains hold keys.
  eth_sendTransaction: {
    params: [callObject],
    required: 1,
    kind: 'write',
    credits: 80,
    cache: 'never',
    devOnly: true,
  },
  eth_sign: {
    params: [address, p('message', parseData)],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'never',
    devOnly: true,
  },
  eth_signTransaction: { params: [callObject], required: 1, kind: 'read', credits: 80, cache: 'never', devOnly: true },
  eth_signTypedData_v4: {
    params: [address, p('typed data', parseAny)],
    required: 2,
    kind: 'read',
    credits: 80,
    cache: 'never',
    devOnly: true,
  },
} as const satisfies Record<string, MethodPolicy>);

export type EthMethod = keyof typeof ethMethods;

/** Dev-chain method namespaces forwarded as they are on dev networks only (anvil_mine, evm_snapshot…). */
export const ETH_DEV_NAMESPACES = ['anvil_', 'evm_'] as const;

/** The row used for any dev-chain method on a dev network: params passed through unchecked. */
export const ethDevMethod: MethodPolicy = {
  params: [],
  required: 0,
  kind: 'write',
  credits: 80,
  cache: 'never',
  devOnly: true,
  multiplexable: false,
  // anvil_setCode, anvil_setStorageAt, anvil_impersonateAccount…: any account's code and state
  // change for every later call, so a key with a contract allowlist cannot call them
  contracts: () => [],
};
