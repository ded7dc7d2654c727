import type { StarknetSpecMethodName } from './starknetSpecMethods.js';

/** The transaction types of a broadcasted transaction. */
export type StarknetTxnType = 'INVOKE' | 'DECLARE' | 'DEPLOY_ACCOUNT';

/**
 * What the specification requires inside an object param: `object`, the fields of one object schema (the union of
 * the `required` lists of its `allOf` parts); `transaction`, a broadcasted transaction whose fields depend on its
 * `type` (spec 0.10 broadcasts version 3 only). `each` says the param is an array of such objects.
 */
export type StarknetSpecParamFields =
  | { readonly kind: 'object'; readonly each: boolean; readonly required: readonly string[] }
  | {
      readonly kind: 'transaction';
      readonly each: boolean;
      /** The types the param takes (one for `addInvokeTransaction` and its kin, all three in estimates). */
      readonly required: Readonly<Partial<Record<StarknetTxnType, readonly string[]>>>;
    };

const INVOKE_TXN_V3 = [
  'type',
  'sender_address',
  'calldata',
  'version',
  'signature',
  'nonce',
  'resource_bounds',
  'tip',
  'paymaster_data',
  'account_deployment_data',
  'nonce_data_availability_mode',
  'fee_data_availability_mode',
] as const;
const BROADCASTED_DECLARE_TXN_V3 = [
  'type',
  'sender_address',
  'compiled_class_hash',
  'version',
  'signature',
  'nonce',
  'contract_class',
  'resource_bounds',
  'tip',
  'paymaster_data',
  'account_deployment_data',
  'nonce_data_availability_mode',
  'fee_data_availability_mode',
] as const;
const DEPLOY_ACCOUNT_TXN_V3 = [
  'version',
  'signature',
  'nonce',
  'type',
  'contract_address_salt',
  'constructor_calldata',
  'class_hash',
  'resource_bounds',
  'tip',
  'paymaster_data',
  'nonce_data_availability_mode',
  'fee_data_availability_mode',
] as const;
const BROADCASTED_TXN = {
  INVOKE: INVOKE_TXN_V3,
  DECLARE: BROADCASTED_DECLARE_TXN_V3,
  DEPLOY_ACCOUNT: DEPLOY_ACCOUNT_TXN_V3,
};

/**
 * The fields the specification 0.10.2 requires inside each object param of each method (block ids aside: a block id
 * is one of three shapes, checked as a whole). Params not listed take no object. Written out here so that no
 * package reads the OpenRPC documents at run time; `starknetSpecParamFields.test.ts` derives the same table from
 * the published documents in `../shared/fixtures/starknet-specs-0.10.2/` and fails on any difference, in either
 * direction.
 *
 * @example
 * starknetSpecParamFields.getEvents?.filter // { kind: 'object', each: false, required: ['chunk_size'] }
 */
export const starknetSpecParamFields: Readonly<
  Partial<Record<StarknetSpecMethodName, Readonly<Record<string, StarknetSpecParamFields>>>>
> = {
  call: {
    request: { kind: 'object', each: false, required: ['contract_address', 'entry_point_selector', 'calldata'] },
  },
  estimateFee: { request: { kind: 'transaction', each: true, required: BROADCASTED_TXN } },
  estimateMessageFee: {
    message: {
      kind: 'object',
      each: false,
      required: ['from_address', 'to_address', 'payload', 'entry_point_selector'],
    },
  },
  // EVENT_FILTER requires nothing (from_block and to_block are optional); RESULT_PAGE_REQUEST requires chunk_size
  getEvents: { filter: { kind: 'object', each: false, required: ['chunk_size'] } },
  getStorageProof: {
    contracts_storage_keys: { kind: 'object', each: true, required: ['contract_address', 'storage_keys'] },
  },
  simulateTransactions: { transactions: { kind: 'transaction', each: true, required: BROADCASTED_TXN } },
  addInvokeTransaction: {
    invoke_transaction: { kind: 'transaction', each: false, required: { INVOKE: INVOKE_TXN_V3 } },
  },
  addDeclareTransaction: {
    declare_transaction: { kind: 'transaction', each: false, required: { DECLARE: BROADCASTED_DECLARE_TXN_V3 } },
  },
  addDeployAccountTransaction: {
    deploy_account_transaction: {
      kind: 'transaction',
      each: false,
      required: { DEPLOY_ACCOUNT: DEPLOY_ACCOUNT_TXN_V3 },
    },
  },
};
