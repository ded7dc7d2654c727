/** Method knowledge as data: every wire method with its param names (for positional params) and handler. */
import { devnet_abortBlocks } from './methods/devnet_abortBlocks.js';
import { devnet_acceptOnL1 } from './methods/devnet_acceptOnL1.js';
import { devnet_autoImpersonate } from './methods/devnet_autoImpersonate.js';
import { devnet_createBlock } from './methods/devnet_createBlock.js';
import { devnet_dump } from './methods/devnet_dump.js';
import { devnet_getAccountBalance } from './methods/devnet_getAccountBalance.js';
import { devnet_getConfig } from './methods/devnet_getConfig.js';
import { devnet_getPredeployedAccounts } from './methods/devnet_getPredeployedAccounts.js';
import { devnet_impersonateAccount } from './methods/devnet_impersonateAccount.js';
import { devnet_increaseTime } from './methods/devnet_increaseTime.js';
import { devnet_load } from './methods/devnet_load.js';
import { devnet_mint } from './methods/devnet_mint.js';
import { devnet_postmanConsumeMessageFromL2 } from './methods/devnet_postmanConsumeMessageFromL2.js';
import { devnet_postmanFlush } from './methods/devnet_postmanFlush.js';
import { devnet_postmanLoad } from './methods/devnet_postmanLoad.js';
import { devnet_postmanSendMessageToL2 } from './methods/devnet_postmanSendMessageToL2.js';
import { devnet_restart } from './methods/devnet_restart.js';
import { devnet_setGasPrice } from './methods/devnet_setGasPrice.js';
import { devnet_setTime } from './methods/devnet_setTime.js';
import { devnet_stopAutoImpersonate } from './methods/devnet_stopAutoImpersonate.js';
import { devnet_stopImpersonateAccount } from './methods/devnet_stopImpersonateAccount.js';
import { starknet_addDeclareTransaction } from './methods/starknet_addDeclareTransaction.js';
import { starknet_addDeployAccountTransaction } from './methods/starknet_addDeployAccountTransaction.js';
import { starknet_addInvokeTransaction } from './methods/starknet_addInvokeTransaction.js';
import { starknet_blockHashAndNumber } from './methods/starknet_blockHashAndNumber.js';
import { starknet_blockNumber } from './methods/starknet_blockNumber.js';
import { starknet_call } from './methods/starknet_call.js';
import { starknet_chainId } from './methods/starknet_chainId.js';
import { starknet_estimateFee } from './methods/starknet_estimateFee.js';
import { starknet_estimateMessageFee } from './methods/starknet_estimateMessageFee.js';
import { starknet_getBlockTransactionCount } from './methods/starknet_getBlockTransactionCount.js';
import { starknet_getBlockWithReceipts } from './methods/starknet_getBlockWithReceipts.js';
import { starknet_getBlockWithTxHashes } from './methods/starknet_getBlockWithTxHashes.js';
import { starknet_getBlockWithTxs } from './methods/starknet_getBlockWithTxs.js';
import { starknet_getClass } from './methods/starknet_getClass.js';
import { starknet_getClassAt } from './methods/starknet_getClassAt.js';
import { starknet_getClassHashAt } from './methods/starknet_getClassHashAt.js';
import { starknet_getCompiledCasm } from './methods/starknet_getCompiledCasm.js';
import { starknet_getEvents } from './methods/starknet_getEvents.js';
import { starknet_getMessagesStatus } from './methods/starknet_getMessagesStatus.js';
import { starknet_getNonce } from './methods/starknet_getNonce.js';
import { starknet_getStateUpdate } from './methods/starknet_getStateUpdate.js';
import { starknet_getStorageAt } from './methods/starknet_getStorageAt.js';
import { starknet_getStorageProof } from './methods/starknet_getStorageProof.js';
import { starknet_getTransactionByBlockIdAndIndex } from './methods/starknet_getTransactionByBlockIdAndIndex.js';
import { starknet_getTransactionByHash } from './methods/starknet_getTransactionByHash.js';
import { starknet_getTransactionReceipt } from './methods/starknet_getTransactionReceipt.js';
import { starknet_getTransactionStatus } from './methods/starknet_getTransactionStatus.js';
import { starknet_simulateTransactions } from './methods/starknet_simulateTransactions.js';
import { starknet_specVersion } from './methods/starknet_specVersion.js';
import { starknet_syncing } from './methods/starknet_syncing.js';
import { starknet_traceBlockTransactions } from './methods/starknet_traceBlockTransactions.js';
import { starknet_traceTransaction } from './methods/starknet_traceTransaction.js';
import type { Handler } from './types.js';
import { type StarknetHttpMethodName, starknetSpecMethods } from '@nodegate/starknet-spec';

/** What the server knows about one method. */
export interface MethodSpec {
  /** Param names in positional order. */
  params: readonly string[];
  /** Whether the method changes the chain. */
  write: boolean;
  handler: Handler;
}

/** The param names of a spec method, in its order (from the shared spec list). */
const spec = (name: StarknetHttpMethodName): readonly string[] => starknetSpecMethods[name].params;

/** Every spec HTTP method as `starknet_<name>` (a missing one is a compile error), plus the devnet_ methods. */
type ServedMethods = { readonly [K in StarknetHttpMethodName as `starknet_${K}`]: MethodSpec } & {
  readonly [K: `devnet_${string}`]: MethodSpec;
};

/** Every served method. */
export const methodTable = {
  starknet_specVersion: { params: spec('specVersion'), write: false, handler: starknet_specVersion },
  starknet_chainId: { params: spec('chainId'), write: false, handler: starknet_chainId },
  starknet_blockNumber: { params: spec('blockNumber'), write: false, handler: starknet_blockNumber },
  starknet_blockHashAndNumber: {
    params: spec('blockHashAndNumber'),
    write: false,
    handler: starknet_blockHashAndNumber,
  },
  starknet_syncing: { params: spec('syncing'), write: false, handler: starknet_syncing },
  starknet_getBlockWithTxHashes: {
    params: spec('getBlockWithTxHashes'),
    write: false,
    handler: starknet_getBlockWithTxHashes,
  },
  starknet_getBlockWithTxs: { params: spec('getBlockWithTxs'), write: false, handler: starknet_getBlockWithTxs },
  starknet_getBlockWithReceipts: {
    params: spec('getBlockWithReceipts'),
    write: false,
    handler: starknet_getBlockWithReceipts,
  },
  starknet_getBlockTransactionCount: {
    params: spec('getBlockTransactionCount'),
    write: false,
    handler: starknet_getBlockTransactionCount,
  },
  starknet_getStateUpdate: { params: spec('getStateUpdate'), write: false, handler: starknet_getStateUpdate },
  starknet_getStorageAt: {
    params: spec('getStorageAt'),
    write: false,
    handler: starknet_getStorageAt,
  },
  starknet_getNonce: { params: spec('getNonce'), write: false, handler: starknet_getNonce },
  starknet_getClass: { params: spec('getClass'), write: false, handler: starknet_getClass },
  starknet_getClassAt: { params: spec('getClassAt'), write: false, handler: starknet_getClassAt },
  starknet_getClassHashAt: { params: spec('getClassHashAt'), write: false, handler: starknet_getClassHashAt },
  starknet_getTransactionByHash: {
    params: spec('getTransactionByHash'),
    write: false,
    handler: starknet_getTransactionByHash,
  },
  starknet_getTransactionByBlockIdAndIndex: {
    params: spec('getTransactionByBlockIdAndIndex'),
    write: false,
    handler: starknet_getTransactionByBlockIdAndIndex,
  },
  starknet_getTransactionReceipt: {
    params: spec('getTransactionReceipt'),
    write: false,
    handler: starknet_getTransactionReceipt,
  },
  starknet_getMessagesStatus: { params: spec('getMessagesStatus'), write: false, handler: starknet_getMessagesStatus },
  starknet_getStorageProof: { params: spec('getStorageProof'), write: false, handler: starknet_getStorageProof },
  starknet_getCompiledCasm: { params: spec('getCompiledCasm'), write: false, handler: starknet_getCompiledCasm },
  starknet_getTransactionStatus: {
    params: spec('getTransactionStatus'),
    write: false,
    handler: starknet_getTransactionStatus,
  },
  starknet_getEvents: { params: spec('getEvents'), write: false, handler: starknet_getEvents },
  starknet_call: { params: spec('call'), write: false, handler: starknet_call },
  starknet_estimateFee: {
    params: spec('estimateFee'),
    write: false,
    handler: starknet_estimateFee,
  },
  starknet_estimateMessageFee: {
    params: spec('estimateMessageFee'),
    write: false,
    handler: starknet_estimateMessageFee,
  },
  starknet_simulateTransactions: {
    params: spec('simulateTransactions'),
    write: false,
    handler: starknet_simulateTransactions,
  },
  starknet_traceTransaction: { params: spec('traceTransaction'), write: false, handler: starknet_traceTransaction },
  starknet_traceBlockTransactions: {
    params: spec('traceBlockTransactions'),
    write: false,
    handler: starknet_traceBlockTransactions,
  },
  starknet_addInvokeTransaction: {
    params: spec('addInvokeTransaction'),
    write: true,
    handler: starknet_addInvokeTransaction,
  },
  starknet_addDeployAccountTransaction: {
    params: spec('addDeployAccountTransaction'),
    write: true,
    handler: starknet_addDeployAccountTransaction,
  },
  starknet_addDeclareTransaction: {
    params: spec('addDeclareTransaction'),
    write: true,
    handler: starknet_addDeclareTransaction,
  },
  devnet_getPredeployedAccounts: { params: ['with_balance'], write: false, handler: devnet_getPredeployedAccounts },
  devnet_getAccountBalance: {
    params: ['address', 'unit', 'block_id'],
    write: false,
    handler: devnet_getAccountBalance,
  },
  devnet_mint: { params: ['address', 'amount', 'unit'], write: true, handler: devnet_mint },
  devnet_createBlock: { params: [], write: true, handler: devnet_createBlock },
  devnet_setTime: { params: ['time', 'generate_block'], write: true, handler: devnet_setTime },
  devnet_increaseTime: { params: ['time'], write: true, handler: devnet_increaseTime },
  devnet_dump: { params: ['path'], write: false, handler: devnet_dump },
  devnet_load: { params: ['path'], write: true, handler: devnet_load },
  devnet_restart: { params: [], write: true, handler: devnet_restart },
  devnet_getConfig: { params: [], write: false, handler: devnet_getConfig },
  devnet_impersonateAccount: { params: ['account_address'], write: true, handler: devnet_impersonateAccount },
  devnet_stopImpersonateAccount: {
    params: ['account_address'],
    write: true,
    handler: devnet_stopImpersonateAccount,
  },
  devnet_autoImpersonate: { params: [], write: true, handler: devnet_autoImpersonate },
  devnet_stopAutoImpersonate: { params: [], write: true, handler: devnet_stopAutoImpersonate },
  devnet_abortBlocks: { params: ['starting_block_id'], write: true, handler: devnet_abortBlocks },
  devnet_acceptOnL1: { params: ['starting_block_id'], write: true, handler: devnet_acceptOnL1 },
  devnet_setGasPrice: {
    params: [
      'gas_price_wei',
      'data_gas_price_wei',
      'gas_price_fri',
      'data_gas_price_fri',
      'l2_gas_price_wei',
      'l2_gas_price_fri',
      'generate_block',
    ],
    write: true,
    handler: devnet_setGasPrice,
  },
  devnet_postmanLoad: {
    params: ['network_url', 'messaging_contract_address', 'deployer_account_private_key'],
    write: true,
    handler: devnet_postmanLoad,
  },
  devnet_postmanFlush: { params: ['dry_run'], write: true, handler: devnet_postmanFlush },
  devnet_postmanSendMessageToL2: {
    params: [
      'l2_contract_address',
      'entry_point_selector',
      'l1_contract_address',
      'payload',
      'paid_fee_on_l1',
      'nonce',
      'l1_transaction_hash',
    ],
    write: true,
    handler: devnet_postmanSendMessageToL2,
  },
  devnet_postmanConsumeMessageFromL2: {
    params: ['from_address', 'to_address', 'payload'],
    write: true,
    handler: devnet_postmanConsumeMessageFromL2,
  },
} as const satisfies ServedMethods;

/** A served method name. */
export type MethodName = keyof typeof methodTable;
