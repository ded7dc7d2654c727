import {
  type StarknetHttpMethodName,
  type StarknetSpecMethodName,
  type StarknetWsMethodName,
  starknetSpecMethods,
} from '@nodegate/starknet-spec';
import { ProtocolRpcError } from '../../errors/GatewayError.js';
import type { MethodTraits } from '../types.js';
import { withMultiplexable } from '../withMultiplexable.js';
import { seedBlock, seedReceipt } from './seedShapes.js';
import { checkBlockId, checkFelt, checkFeltArray, checkIndex, checkObject, invalid } from './starknetParams.js';
import { transactionContracts } from './transactionContracts.js';

// What a call names for the contract allowlist (MethodTraits.contracts). The params are the
// named object createStarknetFamily's toNamed builds (a copy keyed by the spec's param names);
// a positional array in the spec's order is read the same way. Any unexpected shape yields []
// (refused when the list is set); never throws.
const NONE: readonly string[] = Object.freeze([]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The param `name`, found at `index` when the params are positional. */
const param = (params: unknown, name: string, index: number): unknown =>
  Array.isArray(params) ? params[index] : isObject(params) ? params[name] : undefined;
const felt = (v: unknown): readonly string[] => (typeof v === 'string' ? [v] : NONE);
/** `contract_address`, the param at `index` in the spec's order. */
const contractAddressAt =
  (index: number) =>
  (params: unknown): readonly string[] =>
    felt(param(params, 'contract_address', index));
/** getEvents: `filter.address`, one felt or a list; absent (every contract) gives []. */
const eventFilterAddresses = (params: unknown): readonly string[] => {
  const filter = param(params, 'filter', 0);
  if (!isObject(filter)) return NONE;
  const a = filter.address;
  if (typeof a === 'string') return [a];
  if (Array.isArray(a) && a.every((x) => typeof x === 'string')) return a as string[];
  return NONE;
};
/** subscribeEvents: `from_address`, one felt or a list; absent (every contract) gives []. */
const subscribedEventAddresses = (params: unknown): readonly string[] => {
  const a = param(params, 'from_address', 0);
  if (typeof a === 'string') return [a];
  if (Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === 'string')) return a as string[];
  return NONE;
};
/** getStorageProof: `contract_addresses` and each `contracts_storage_keys[].contract_address`; none named gives undefined. */
const storageProofContracts = (params: unknown): readonly string[] | undefined => {
  const addresses = param(params, 'contract_addresses', 2);
  const storageKeys = param(params, 'contracts_storage_keys', 3);
  if (addresses === undefined && storageKeys === undefined) return undefined;
  const out: string[] = [];
  if (addresses !== undefined) {
    if (!Array.isArray(addresses) || !addresses.every((x) => typeof x === 'string')) return NONE;
    out.push(...(addresses as string[]));
  }
  if (storageKeys !== undefined) {
    if (!Array.isArray(storageKeys)) return NONE;
    for (const entry of storageKeys) {
      if (!isObject(entry) || typeof entry.contract_address !== 'string') return NONE;
      out.push(entry.contract_address);
    }
  }
  return out.length === 0 ? undefined : out;
};

/** Settings the Starknet checks need. */
export interface StarknetLimits {
  /** The network's cap on getEvents chunk_size (error 31 above it). */
  readonly maxChunkSize: number;
}

/** A row of the Starknet table (spec 0.10 method, without prefix). */
export interface StarknetMethod extends MethodTraits {
  /** Param names in the spec's order (positional arrays are read in this order). */
  readonly params: readonly string[];
  /** How many leading params are required. */
  readonly required: number;
  /** Exact checks before any upstream call (the interface's seed methods and a few more). */
  readonly validate?: (params: Record<string, unknown>, limits: StarknetLimits) => void;
  /** The stk_ result shape (starknet_ aliases get the spec shape). */
  readonly seedShape?: (result: unknown) => unknown;
}

/** A read method: its params (names, order, required count) come from the shared spec list. */
const read = (name: StarknetHttpMethodName, credits = 80): StarknetMethod => ({
  params: starknetSpecMethods[name].params,
  required: starknetSpecMethods[name].required,
  kind: 'read',
  credits,
  cache: 'by-block',
});

/** A write method (params from the spec list), checked by `validate` before it is sent. */
const write = (name: StarknetHttpMethodName, validate?: StarknetMethod['validate']): StarknetMethod => ({
  params: starknetSpecMethods[name].params,
  required: starknetSpecMethods[name].required,
  kind: 'write',
  credits: 80,
  cache: 'never',
  ...(validate ? { validate } : {}),
});

/**
 * A WebSocket subscription method: its params from the spec list, checked (and shared) by the
 * subscription hub's filter; over HTTP it answers -32601.
 */
const subscription = (name: StarknetWsMethodName, credits: number): StarknetMethod => ({
  params: starknetSpecMethods[name].params,
  required: starknetSpecMethods[name].required,
  kind: 'subscription',
  credits,
  cache: 'never',
  wsOnly: true,
});

/** A read whose first param is the block id (checked exactly). */
const blockOnly = (name: StarknetHttpMethodName, credits = 80): StarknetMethod => ({
  ...read(name, credits),
  validate: (p) => void checkBlockId(p.block_id, 'block_id'),
});

/**
 * getEvents' filter: its fields' shapes (which fields are required comes from the spec table, checked by
 * `requireSpecFields` before this: only `chunk_size`; `from_block` and `to_block` are optional).
 */
function validateEventFilter(p: Record<string, unknown>, limits: StarknetLimits): void {
  const f = checkObject(p.filter, 'filter');
  for (const k of ['from_block', 'to_block'] as const) {
    if (f[k] !== undefined) checkBlockId(f[k], `filter.${k}`);
  }
  if (f.address !== undefined) {
    if (Array.isArray(f.address)) checkFeltArray(f.address, 'filter.address');
    else checkFelt(f.address, 'filter.address');
  }
  if (f.keys !== undefined) {
    if (!Array.isArray(f.keys)) throw invalid('filter.keys', 'an array of arrays of felts', f.keys);
    for (const [i, k] of f.keys.entries()) checkFeltArray(k, `filter.keys[${i}]`);
  }
  if (f.continuation_token !== undefined && typeof f.continuation_token !== 'string') {
    throw invalid('filter.continuation_token', 'a string', f.continuation_token);
  }
  const size = f.chunk_size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1) {
    throw invalid('filter.chunk_size', 'an integer >= 1', size);
  }
  if (size > limits.maxChunkSize) {
    throw new ProtocolRpcError(31, 'Requested page size is too big');
  }
}

/** The shapes of a broadcasted transaction's common fields (its required fields come from the spec table). */
function validateTx(type: string, name: string) {
  return (p: Record<string, unknown>) => {
    const tx = checkObject(p[name], name);
    if (tx.type !== type) throw invalid(`${name}.type`, `"${type}"`, tx.type);
    if (typeof tx.version !== 'string') throw invalid(`${name}.version`, 'a hex version string', tx.version);
    checkFeltArray(tx.signature, `${name}.signature`);
    checkFelt(tx.nonce, `${name}.nonce`);
  };
}

const validateDeployAccount = validateTx('DEPLOY_ACCOUNT', 'deploy_account_transaction');
const validateDeclare = validateTx('DECLARE', 'declare_transaction');
const validateInvoke = validateTx('INVOKE', 'invoke_transaction');

/**
 * Every spec 0.10 method (the WebSocket subscriptions included), served as `stk_<name>` (seed shapes) and `starknet_<name>`
 * (spec shapes). A method not in this table answers -32601 and never reaches an upstream. Every
 * row gets `multiplexable` from its kind (`withMultiplexable`).
 */
export const starknetMethods = withMultiplexable({
  specVersion: { ...read('specVersion'), cache: 'immutable', credits: 5 },
  chainId: { ...read('chainId'), cache: 'immutable', credits: 5 },
  blockNumber: { ...read('blockNumber'), cache: 'head' },
  blockHashAndNumber: { ...read('blockHashAndNumber'), cache: 'head' },
  syncing: { ...read('syncing'), cache: 'head', credits: 5 },
  getBlockWithTxHashes: { ...blockOnly('getBlockWithTxHashes'), seedShape: seedBlock },
  getBlockWithTxs: { ...blockOnly('getBlockWithTxs'), seedShape: seedBlock },
  getBlockWithReceipts: { ...blockOnly('getBlockWithReceipts', 300), heavy: true, seedShape: seedBlock },
  getStateUpdate: blockOnly('getStateUpdate'),
  getBlockTransactionCount: blockOnly('getBlockTransactionCount'),
  getStorageAt: {
    ...read('getStorageAt'),
    contracts: contractAddressAt(0),
    validate: (p) => {
      checkFelt(p.contract_address, 'contract_address');
      checkFelt(p.key, 'key');
      checkBlockId(p.block_id, 'block_id');
    },
  },
  getNonce: {
    ...read('getNonce'),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getClass: {
    ...read('getClass', 150),
    cache: 'immutable',
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.class_hash, 'class_hash');
    },
  },
  getClassAt: {
    ...read('getClassAt', 150),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getClassHashAt: {
    ...read('getClassHashAt'),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getCompiledCasm: { ...read('getCompiledCasm', 150), cache: 'immutable' },
  getTransactionByHash: { ...read('getTransactionByHash'), cache: 'immutable' },
  getTransactionByBlockIdAndIndex: {
    ...read('getTransactionByBlockIdAndIndex'),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkIndex(p.index, 'index');
    },
  },
  getTransactionReceipt: {
    ...read('getTransactionReceipt'),
    // by hash; the cache keeps it only once its status says ACCEPTED_ON_L1 (cache/planStarknetCacheEntry.ts)
    cache: 'immutable',
    validate: (p) => void checkFelt(p.transaction_hash, 'transaction_hash'),
    seedShape: seedReceipt,
  },
  getTransactionStatus: { ...read('getTransactionStatus'), cache: 'never' },
  getMessagesStatus: { ...read('getMessagesStatus'), cache: 'never' },
  getEvents: { ...read('getEvents', 255), heavy: true, validate: validateEventFilter, contracts: eventFilterAddresses },
  getStorageProof: {
    ...read('getStorageProof', 300),
    heavy: true,
    contracts: storageProofContracts,
  },
  call: {
    ...read('call'),
    contracts: (params) => {
      const request = param(params, 'request', 0);
      return isObject(request) ? felt(request.contract_address) : NONE;
    },
  },
  estimateFee: {
    ...read('estimateFee', 300),
    heavy: true,
    cache: 'never',
    contracts: (params) => transactionContracts(param(params, 'request', 0)),
  },
  estimateMessageFee: {
    ...read('estimateMessageFee', 300),
    heavy: true,
    cache: 'never',
    // the L1 handler runs at `to_address` (`from_address` is an L1 address)
    contracts: (params) => {
      const message = param(params, 'message', 0);
      return isObject(message) ? felt(message.to_address) : NONE;
    },
  },
  simulateTransactions: {
    ...read('simulateTransactions', 300),
    heavy: true,
    cache: 'never',
    contracts: (params) => transactionContracts(param(params, 'transactions', 1)),
  },
  traceTransaction: { ...read('traceTransaction', 300), heavy: true, cache: 'immutable' },
  traceBlockTransactions: { ...read('traceBlockTransactions', 500), heavy: true },
  addInvokeTransaction: write('addInvokeTransaction', validateInvoke),
  addDeclareTransaction: write('addDeclareTransaction', validateDeclare),
  addDeployAccountTransaction: write('addDeployAccountTransaction', validateDeployAccount),
  // Subscriptions: WebSocket only (the subscription hub shares them; see subscriptions/starknet/).
  subscribeNewHeads: subscription('subscribeNewHeads', 5),
  subscribeEvents: { ...subscription('subscribeEvents', 5), contracts: subscribedEventAddresses },
  subscribeTransactionStatus: subscription('subscribeTransactionStatus', 5),
  subscribeNewTransactions: subscription('subscribeNewTransactions', 5),
  subscribeNewTransactionReceipts: subscription('subscribeNewTransactionReceipts', 5),
  unsubscribe: subscription('unsubscribe', 10),
} as const satisfies Record<StarknetSpecMethodName, StarknetMethod>);

export type StarknetMethodName = keyof typeof starknetMethods;
