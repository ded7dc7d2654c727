/** The version of the Starknet JSON-RPC specification nodegate serves. */
export const STARKNET_SPEC_VERSION = '0.10.2';

/** Which part of the specification a method belongs to. */
export type StarknetApi = 'read' | 'write' | 'trace' | 'executables' | 'ws';

/** A method of the specification: its part, its params in positional order, and how many are required. */
export interface StarknetSpecMethod {
  readonly api: StarknetApi;
  /** Param names in the specification's order (the order of positional params). */
  readonly params: readonly string[];
  /** The first `required` params are required; the rest are optional. */
  readonly required: number;
}

const m = <A extends StarknetApi>(
  api: A,
  params: readonly string[],
  required = params.length,
): StarknetSpecMethod & { readonly api: A } => ({ api, params, required });

/**
 * Every method of Starknet JSON-RPC 0.10, by its name without the `starknet_` prefix (the gateway
 * serves each as `starknet_<name>` and `stk_<name>`). The gateway's method table, the dev chain's
 * method table and the snap's node calls are typed against this list, and a test checks it against
 * the published OpenRPC documents, so the three cannot drift apart again.
 */
export const starknetSpecMethods = {
  specVersion: m('read', []),
  getBlockWithTxHashes: m('read', ['block_id']),
  getBlockWithTxs: m('read', ['block_id', 'response_flags'], 1),
  getBlockWithReceipts: m('read', ['block_id', 'response_flags'], 1),
  getStateUpdate: m('read', ['block_id', 'contract_addresses'], 1),
  getStorageAt: m('read', ['contract_address', 'key', 'block_id', 'response_flags'], 3),
  getTransactionStatus: m('read', ['transaction_hash']),
  getMessagesStatus: m('read', ['transaction_hash']),
  getTransactionByHash: m('read', ['transaction_hash', 'response_flags'], 1),
  getTransactionByBlockIdAndIndex: m('read', ['block_id', 'index', 'response_flags'], 2),
  getTransactionReceipt: m('read', ['transaction_hash']),
  getClass: m('read', ['block_id', 'class_hash']),
  getClassHashAt: m('read', ['block_id', 'contract_address']),
  getClassAt: m('read', ['block_id', 'contract_address']),
  getBlockTransactionCount: m('read', ['block_id']),
  call: m('read', ['request', 'block_id']),
  estimateFee: m('read', ['request', 'simulation_flags', 'block_id']),
  estimateMessageFee: m('read', ['message', 'block_id']),
  blockNumber: m('read', []),
  blockHashAndNumber: m('read', []),
  chainId: m('read', []),
  syncing: m('read', []),
  getEvents: m('read', ['filter']),
  getNonce: m('read', ['block_id', 'contract_address']),
  getStorageProof: m('read', ['block_id', 'class_hashes', 'contract_addresses', 'contracts_storage_keys'], 1),
  getCompiledCasm: m('executables', ['class_hash']),
  traceTransaction: m('trace', ['transaction_hash']),
  simulateTransactions: m('trace', ['block_id', 'transactions', 'simulation_flags']),
  traceBlockTransactions: m('trace', ['block_id', 'trace_flags'], 1),
  addInvokeTransaction: m('write', ['invoke_transaction']),
  addDeclareTransaction: m('write', ['declare_transaction']),
  addDeployAccountTransaction: m('write', ['deploy_account_transaction']),
  subscribeNewHeads: m('ws', ['block_id'], 0),
  subscribeEvents: m('ws', ['from_address', 'keys', 'block_id', 'finality_status'], 0),
  subscribeTransactionStatus: m('ws', ['transaction_hash']),
  subscribeNewTransactionReceipts: m('ws', ['finality_status', 'sender_address'], 0),
  subscribeNewTransactions: m('ws', ['finality_status', 'sender_address', 'tags'], 0),
  unsubscribe: m('ws', ['subscription_id']),
} as const satisfies Record<string, StarknetSpecMethod>;

/** A method of the specification, without its `starknet_` prefix. */
export type StarknetSpecMethodName = keyof typeof starknetSpecMethods;

/** The methods served over HTTP (every part but the WebSocket one). */
export type StarknetHttpMethodName = {
  [K in StarknetSpecMethodName]: (typeof starknetSpecMethods)[K]['api'] extends 'ws' ? never : K;
}[StarknetSpecMethodName];

/** The methods served only over a WebSocket (subscriptions). */
export type StarknetWsMethodName = Exclude<StarknetSpecMethodName, StarknetHttpMethodName>;

/** Notifications a server sends on a WebSocket subscription, without the `starknet_` prefix. */
export const starknetSpecNotifications = [
  'subscriptionNewHeads',
  'subscriptionEvents',
  'subscriptionTransactionStatus',
  'subscriptionNewTransactionReceipts',
  'subscriptionNewTransaction',
  'subscriptionReorg',
] as const;

/** The HTTP methods' names, in the specification's order. */
export const starknetHttpMethodNames = Object.keys(starknetSpecMethods).filter(
  (k) => starknetSpecMethods[k as StarknetSpecMethodName].api !== 'ws',
) as StarknetHttpMethodName[];
