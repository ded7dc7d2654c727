import { ProtocolRpcError } from '../../errors/GatewayError.js';
import type { MethodTraits } from '../types.js';
import { seedBlock, seedReceipt } from './seedShapes.js';
import {
  checkBlockId,
  checkFelt,
  checkFeltArray,
  checkIndex,
  checkObject,
  invalid,
  requireFields,
} from './starknetParams.js';

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

const read = (params: string[], required = params.length, credits = 80): StarknetMethod => ({
  params,
  required,
  kind: 'read',
  credits,
  cache: 'by-block',
});

const blockOnly = (credits = 80): StarknetMethod => ({
  ...read(['block_id'], 1, credits),
  validate: (p) => void checkBlockId(p.block_id, 'block_id'),
});

function validateEventFilter(p: Record<string, unknown>, limits: StarknetLimits): void {
  const f = checkObject(p.filter, 'filter');
  for (const k of ['from_block', 'to_block'] as const) {
    if (f[k] === undefined) throw invalid(`filter.${k}`, 'a block id (required)', undefined);
    checkBlockId(f[k], `filter.${k}`);
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
  if (size === undefined) throw invalid('filter.chunk_size', 'an integer >= 1 (required)', undefined);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1) {
    throw invalid('filter.chunk_size', 'an integer >= 1', size);
  }
  if (size > limits.maxChunkSize) {
    throw new ProtocolRpcError(31, 'Requested page size is too big');
  }
}

function validateTx(type: string, required: (o: Record<string, unknown>) => readonly string[]) {
  return (name: string) => (p: Record<string, unknown>) => {
    const tx = checkObject(p[name], name);
    if (tx.type !== undefined && tx.type !== type) throw invalid(`${name}.type`, `"${type}"`, tx.type);
    if (typeof tx.version !== 'string') throw invalid(`${name}.version`, 'a hex version string', tx.version);
    requireFields(tx, required(tx), name);
    checkFeltArray(tx.signature, `${name}.signature`);
    checkFelt(tx.nonce, `${name}.nonce`);
  };
}

const isV3 = (tx: Record<string, unknown>) => /^0x(1)?0{0,31}3$/.test(String(tx.version));
const V3_FEE_FIELDS = [
  'resource_bounds',
  'tip',
  'paymaster_data',
  'nonce_data_availability_mode',
  'fee_data_availability_mode',
];

const validateDeployAccount = validateTx('DEPLOY_ACCOUNT', (tx) => [
  'class_hash',
  'contract_address_salt',
  'constructor_calldata',
  'signature',
  'nonce',
  ...(isV3(tx) ? V3_FEE_FIELDS : ['max_fee']),
])('deploy_account_transaction');

const validateDeclare = validateTx('DECLARE', (tx) => [
  'sender_address',
  'contract_class',
  'signature',
  'nonce',
  ...(isV3(tx) ? [...V3_FEE_FIELDS, 'compiled_class_hash', 'account_deployment_data'] : ['max_fee']),
])('declare_transaction');

/**
 * Every spec 0.10 HTTP method, served as `stk_<name>` (seed shapes) and `starknet_<name>`
 * (spec shapes). A method not in this table answers -32601 and never reaches an upstream.
 */
export const starknetMethods = {
  specVersion: { ...read([]), cache: 'immutable', credits: 5 },
  chainId: { ...read([]), cache: 'immutable', credits: 5 },
  blockNumber: { ...read([]), cache: 'head' },
  blockHashAndNumber: { ...read([]), cache: 'head' },
  syncing: { ...read([]), cache: 'head', credits: 5 },
  getBlockWithTxHashes: { ...blockOnly(), seedShape: seedBlock },
  getBlockWithTxs: { ...blockOnly(), seedShape: seedBlock },
  getBlockWithReceipts: { ...blockOnly(300), seedShape: seedBlock },
  getStateUpdate: blockOnly(),
  getBlockTransactionCount: blockOnly(),
  getStorageAt: {
    ...read(['contract_address', 'key', 'block_id']),
    contracts: contractAddressAt(0),
    validate: (p) => {
      checkFelt(p.contract_address, 'contract_address');
      checkFelt(p.key, 'key');
      checkBlockId(p.block_id, 'block_id');
    },
  },
  getNonce: {
    ...read(['block_id', 'contract_address']),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getClass: {
    ...read(['block_id', 'class_hash'], 2, 150),
    cache: 'immutable',
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.class_hash, 'class_hash');
    },
  },
  getClassAt: {
    ...read(['block_id', 'contract_address'], 2, 150),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getClassHashAt: {
    ...read(['block_id', 'contract_address']),
    contracts: contractAddressAt(1),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkFelt(p.contract_address, 'contract_address');
    },
  },
  getCompiledCasm: { ...read(['class_hash'], 1, 150), cache: 'immutable' },
  getTransactionByHash: { ...read(['transaction_hash']), cache: 'immutable' },
  getTransactionByBlockIdAndIndex: {
    ...read(['block_id', 'index']),
    validate: (p) => {
      checkBlockId(p.block_id, 'block_id');
      checkIndex(p.index, 'index');
    },
  },
  getTransactionReceipt: {
    ...read(['transaction_hash']),
    cache: 'never',
    validate: (p) => void checkFelt(p.transaction_hash, 'transaction_hash'),
    seedShape: seedReceipt,
  },
  getTransactionStatus: { ...read(['transaction_hash']), cache: 'never' },
  getMessagesStatus: { ...read(['transaction_hash']), cache: 'never' },
  getEvents: { ...read(['filter'], 1, 255), validate: validateEventFilter, contracts: eventFilterAddresses },
  getStorageProof: {
    ...read(['block_id', 'class_hashes', 'contract_addresses', 'contracts_storage_keys'], 1, 300),
    contracts: storageProofContracts,
  },
  call: {
    ...read(['request', 'block_id']),
    contracts: (params) => {
      const request = param(params, 'request', 0);
      return isObject(request) ? felt(request.contract_address) : NONE;
    },
  },
  estimateFee: { ...read(['request', 'simulation_flags', 'block_id'], 3, 300), cache: 'never' },
  estimateMessageFee: { ...read(['message', 'block_id'], 2, 300), cache: 'never' },
  simulateTransactions: { ...read(['block_id', 'transactions', 'simulation_flags'], 3, 300), cache: 'never' },
  traceTransaction: { ...read(['transaction_hash'], 1, 300), cache: 'immutable' },
  traceBlockTransactions: { ...read(['block_id'], 1, 500) },
  addInvokeTransaction: { params: ['invoke_transaction'], required: 1, kind: 'write', credits: 80, cache: 'never' },
  addDeclareTransaction: {
    params: ['declare_transaction'],
    required: 1,
    kind: 'write',
    credits: 80,
    cache: 'never',
    validate: validateDeclare,
  },
  addDeployAccountTransaction: {
    params: ['deploy_account_transaction'],
    required: 1,
    kind: 'write',
    credits: 80,
    cache: 'never',
    validate: validateDeployAccount,
  },
} as const satisfies Record<string, StarknetMethod>;

export type StarknetMethodName = keyof typeof starknetMethods;
