/** Parsing of client transaction payloads into the chain's internal shape. */
import { computeSierraClassHash } from '../contracts/sierraClass.js';
import { contractAddress } from '../crypto/contractAddress.js';
import { DevchainError, ErrorCode, invalidParams } from '../errors.js';
import { parseFelt, parseFelts, toHex } from '../felt.js';
import { parseContractClass } from './parseContractClass.js';
import { requireObject } from './requireObject.js';
import { QUERY_BIT, type ResourceBound, type Tx, type TxType } from './transaction.js';

const SUPPORTED: Record<Exclude<TxType, 'L1_HANDLER'>, number[]> = {
  INVOKE: [1, 3],
  DECLARE: [2, 3],
  DEPLOY_ACCOUNT: [1, 3],
};

function parseBound(value: unknown, field: string): ResourceBound {
  const o = requireObject(value, field);
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

/**
 * Parse a client transaction of `expected` type (or any type when `expected` is undefined, as in
 * estimateFee). Unsupported versions throw UNSUPPORTED_TX_VERSION; query versions are flagged.
 */
export function parseTransaction(raw: unknown, expected?: TxType): Tx {
  const o = requireObject(raw, 'transaction');
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
    const rb = requireObject(o.resource_bounds, 'resource_bounds');
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
