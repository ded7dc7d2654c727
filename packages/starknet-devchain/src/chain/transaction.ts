/** The chain's internal transaction shape. */
import type { SierraContractClass } from '../contracts/sierraClass.js';

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
