/** Transactions: parsing client payloads into one internal shape, and rendering them back. */
import { gunzipSync } from 'node:zlib';
import { computeSierraClassHash, type SierraContractClass, type SierraEntryPoint } from '../contracts/sierraClass.js';
import { contractAddress } from '../crypto/contractAddress.js';
import { DevchainError, ErrorCode, invalidParams } from '../errors.js';
import { parseFelt, parseFelts, toHex } from '../felt.js';

/** Transaction kinds. */
export type TxType = 'INVOKE' | 'DECLARE' | 'DEPLOY_ACCOUNT' | 'L1_HANDLER';

/** One resource bound. */
export interface ResourceBound {
  max_amount: bigint;
  max_price_per_unit: bigint;
}

/** Resource bounds of a v3 transaction; `l1_data_gas` is absent in the older two-bound shape. */
export interface ResourceBounds {
  l1_gas: ResourceBound;
  l2_gas: ResourceBound;
  l1_data_gas?: ResourceBound;
}

/** A transaction in the chain's internal shape. */
export interface Tx {
  type: TxType;
  /** Version as sent (including the query bit). */
  version: bigint;
  /** Version without the query bit: 0, 1, 2 or 3. */
  baseVersion: number;
  query: boolean;
  /** Sender (INVOKE, DECLARE), deployed address (DEPLOY_ACCOUNT) or target (L1_HANDLER). */
  sender: bigint;
  nonce: bigint;
  signature: bigint[];
  /** INVOKE calldata, DEPLOY_ACCOUNT constructor calldata, or L1_HANDLER calldata. */
  calldata: bigint[];
  maxFee?: bigint;
  resourceBounds?: ResourceBounds;
  tip: bigint;
  paymasterData: bigint[];
  accountDeploymentData: bigint[];
  nonceDA: 'L1' | 'L2';
  feeDA: 'L1' | 'L2';
  classHash?: bigint;
  salt?: bigint;
  contractClass?: SierraContractClass;
  compiledClassHash?: bigint;
  entryPointSelector?: bigint;
}

/** The query-version bit (2^128). */
export const QUERY_BIT = 2n ** 128n;

const SUPPORTED: Record<Exclude<TxType, 'L1_HANDLER'>, number[]> = {
  INVOKE: [1, 3],
  DECLARE: [2, 3],
  DEPLOY_ACCOUNT: [1, 3],
};

function obj(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParams(`${field}: expected an object`);
  return value as Record<string, unknown>;
}

function parseBound(value: unknown, field: string): ResourceBound {
  const o = obj(value, field);
  return {
    max_amount: parseFelt(o.max_amount, `${field}.max_amount`),
    max_price_per_unit: parseFelt(o.max_price_per_unit, `${field}.max_price_per_unit`),
  };
}

function parseDA(value: unknown, field: string): 'L1' | 'L2' {
  if (value === undefined || value === 'L1' || value === 0 || value === '0x0') return 'L1';
  if (value === 'L2' || value === 1 || value === '0x1') return 'L2';
  throw invalidParams(`${field}: expected L1 or L2`);
}

function parseEntryPoints(value: unknown, field: string): SierraEntryPoint[] {
  if (!Array.isArray(value)) throw invalidParams(`${field}: expected an array`);
  return value.map((e, i) => {
    const o = obj(e, `${field}[${i}]`);
    return { selector: toHex(parseFelt(o.selector, `${field}[${i}].selector`)), function_idx: Number(o.function_idx) };
  });
}

/** Largest accepted Sierra program, in felts (about the protocol's 4 MB class size limit). */
export const MAX_SIERRA_FELTS = 81_290;

/** Parse a submitted Sierra class (the program may be an array or a gzip+base64 string). */
export function parseContractClass(value: unknown): SierraContractClass {
  const o = obj(value, 'contract_class');
  let program = o.sierra_program;
  if (typeof program === 'string') {
    try {
      program = JSON.parse(gunzipSync(Buffer.from(program, 'base64')).toString('utf8'));
    } catch {
      throw invalidParams('contract_class.sierra_program: not an array nor a compressed program');
    }
  }
  const eps = obj(o.entry_points_by_type, 'contract_class.entry_points_by_type');
  const abi = o.abi === undefined ? '' : typeof o.abi === 'string' ? o.abi : JSON.stringify(o.abi);
  if (typeof o.contract_class_version !== 'string') {
    throw invalidParams('contract_class.contract_class_version: expected a string');
  }
  if (o.contract_class_version !== '0.1.0') {
    throw new DevchainError(ErrorCode.UNSUPPORTED_CONTRACT_CLASS_VERSION, {
      data: `contract_class_version ${o.contract_class_version} (supported: 0.1.0)`,
    });
  }
  if (Array.isArray(program) && program.length > MAX_SIERRA_FELTS) {
    throw new DevchainError(ErrorCode.CONTRACT_CLASS_SIZE_IS_TOO_LARGE, {
      data: `sierra_program has ${program.length} felts (limit ${MAX_SIERRA_FELTS})`,
    });
  }
  return {
    sierra_program: parseFelts(program, 'contract_class.sierra_program').map(toHex),
    contract_class_version: o.contract_class_version,
    entry_points_by_type: {
      CONSTRUCTOR: parseEntryPoints(eps.CONSTRUCTOR ?? [], 'CONSTRUCTOR'),
      EXTERNAL: parseEntryPoints(eps.EXTERNAL ?? [], 'EXTERNAL'),
      L1_HANDLER: parseEntryPoints(eps.L1_HANDLER ?? [], 'L1_HANDLER'),
    },
    abi,
  };
}

/**
 * Parse a client transaction of `expected` type (or any type when `expected` is undefined, as in
 * estimateFee). Unsupported versions throw UNSUPPORTED_TX_VERSION; query versions are flagged.
 */
export function parseTransaction(raw: unknown, expected?: TxType): Tx {
  const o = obj(raw, 'transaction');
  const type = (o.type ?? expected) as TxType;
  if (expected && type !== expected) throw invalidParams(`transaction.type: expected ${expected}`);
  if (type !== 'INVOKE' && type !== 'DECLARE' && type !== 'DEPLOY_ACCOUNT')
    throw invalidParams(`transaction.type: unsupported ${String(type)}`);
  const version = parseFelt(o.version, 'version');
  const query = version >= QUERY_BIT;
  const base = query ? version - QUERY_BIT : version;
  if (base > 3n || !SUPPORTED[type].includes(Number(base))) {
    throw new DevchainError(ErrorCode.UNSUPPORTED_TX_VERSION, {
      data: `${type} version ${toHex(version)} is not supported`,
    });
  }
  const baseVersion = Number(base);
  const tx: Tx = {
    type,
    version,
    baseVersion,
    query,
    sender: 0n,
    nonce: parseFelt(o.nonce ?? '0x0', 'nonce'),
    signature: parseFelts(o.signature ?? [], 'signature'),
    calldata: [],
    tip: 0n,
    paymasterData: [],
    accountDeploymentData: [],
    nonceDA: 'L1',
    feeDA: 'L1',
  };
  if (baseVersion === 3) {
    const rb = obj(o.resource_bounds, 'resource_bounds');
    tx.resourceBounds = { l1_gas: parseBound(rb.l1_gas, 'l1_gas'), l2_gas: parseBound(rb.l2_gas, 'l2_gas') };
    if (rb.l1_data_gas !== undefined) tx.resourceBounds.l1_data_gas = parseBound(rb.l1_data_gas, 'l1_data_gas');
    tx.tip = parseFelt(o.tip ?? '0x0', 'tip');
    tx.paymasterData = parseFelts(o.paymaster_data ?? [], 'paymaster_data');
    tx.nonceDA = parseDA(o.nonce_data_availability_mode, 'nonce_data_availability_mode');
    tx.feeDA = parseDA(o.fee_data_availability_mode, 'fee_data_availability_mode');
    if (type !== 'DEPLOY_ACCOUNT')
      tx.accountDeploymentData = parseFelts(o.account_deployment_data ?? [], 'account_deployment_data');
  } else {
    tx.maxFee = parseFelt(o.max_fee ?? '0x0', 'max_fee');
  }
  switch (type) {
    case 'INVOKE':
      tx.sender = parseFelt(o.sender_address ?? o.contract_address, 'sender_address');
      tx.calldata = parseFelts(o.calldata ?? [], 'calldata');
      break;
    case 'DEPLOY_ACCOUNT':
      tx.classHash = parseFelt(o.class_hash, 'class_hash');
      tx.salt = parseFelt(o.contract_address_salt ?? '0x0', 'contract_address_salt');
      tx.calldata = parseFelts(o.constructor_calldata ?? [], 'constructor_calldata');
      tx.sender = contractAddress(tx.salt, tx.classHash, tx.calldata, 0n);
      break;
    case 'DECLARE':
      tx.sender = parseFelt(o.sender_address, 'sender_address');
      tx.compiledClassHash = parseFelt(o.compiled_class_hash, 'compiled_class_hash');
      tx.contractClass = parseContractClass(o.contract_class);
      tx.classHash = computeSierraClassHash(tx.contractClass);
      break;
  }
  return tx;
}

const boundHex = (b: ResourceBound | undefined) => ({
  max_amount: toHex(b?.max_amount ?? 0n),
  max_price_per_unit: toHex(b?.max_price_per_unit ?? 0n),
});

/** Render a transaction as the spec's TXN object (with its hash). */
export function toWireTransaction(tx: Tx, hash: bigint): Record<string, unknown> {
  const common: Record<string, unknown> = { transaction_hash: toHex(hash), type: tx.type, version: toHex(tx.version) };
  if (tx.type === 'L1_HANDLER') {
    return {
      ...common,
      nonce: toHex(tx.nonce),
      contract_address: toHex(tx.sender),
      entry_point_selector: toHex(tx.entryPointSelector ?? 0n),
      calldata: tx.calldata.map(toHex),
    };
  }
  const fee: Record<string, unknown> =
    tx.baseVersion === 3
      ? {
          resource_bounds: {
            l1_gas: boundHex(tx.resourceBounds?.l1_gas),
            l1_data_gas: boundHex(tx.resourceBounds?.l1_data_gas),
            l2_gas: boundHex(tx.resourceBounds?.l2_gas),
          },
          tip: toHex(tx.tip),
          paymaster_data: tx.paymasterData.map(toHex),
          nonce_data_availability_mode: tx.nonceDA,
          fee_data_availability_mode: tx.feeDA,
        }
      : { max_fee: toHex(tx.maxFee ?? 0n) };
  const sig = { signature: tx.signature.map(toHex), nonce: toHex(tx.nonce) };
  switch (tx.type) {
    case 'INVOKE':
      return {
        ...common,
        sender_address: toHex(tx.sender),
        calldata: tx.calldata.map(toHex),
        ...sig,
        ...fee,
        ...(tx.baseVersion === 3 ? { account_deployment_data: tx.accountDeploymentData.map(toHex) } : {}),
      };
    case 'DEPLOY_ACCOUNT':
      return {
        ...common,
        contract_address_salt: toHex(tx.salt ?? 0n),
        constructor_calldata: tx.calldata.map(toHex),
        class_hash: toHex(tx.classHash ?? 0n),
        ...sig,
        ...fee,
      };
    default:
      return {
        ...common,
        sender_address: toHex(tx.sender),
        class_hash: toHex(tx.classHash ?? 0n),
        compiled_class_hash: toHex(tx.compiledClassHash ?? 0n),
        ...sig,
        ...fee,
        ...(tx.baseVersion === 3 ? { account_deployment_data: tx.accountDeploymentData.map(toHex) } : {}),
      };
  }
}
