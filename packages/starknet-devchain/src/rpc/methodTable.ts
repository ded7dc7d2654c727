/** Method knowledge as data: every wire method with its param names (for positional params) and handler. */
import { devnet_createBlock } from './methods/devnet_createBlock.js';
import { devnet_dump } from './methods/devnet_dump.js';
import { devnet_getAccountBalance } from './methods/devnet_getAccountBalance.js';
import { devnet_getConfig } from './methods/devnet_getConfig.js';
import { devnet_getPredeployedAccounts } from './methods/devnet_getPredeployedAccounts.js';
import { devnet_increaseTime } from './methods/devnet_increaseTime.js';
import { devnet_load } from './methods/devnet_load.js';
import { devnet_mint } from './methods/devnet_mint.js';
import { devnet_restart } from './methods/devnet_restart.js';
import { devnet_setTime } from './methods/devnet_setTime.js';
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
import { starknet_getEvents } from './methods/starknet_getEvents.js';
import { starknet_getNonce } from './methods/starknet_getNonce.js';
import { starknet_getStateUpdate } from './methods/starknet_getStateUpdate.js';
import { starknet_getStorageAt } from './methods/starknet_getStorageAt.js';
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

/** What the server knows about one method. */
export interface MethodSpec {
  /** Param names in positional order. */
  params: readonly string[];
  /** Whether the method changes the chain. */
  write: boolean;
  handler: Handler;
}

/** Every served method. */
export const methodTable = {
  starknet_specVersion: { params: [], write: false, handler: starknet_specVersion },
  starknet_chainId: { params: [], write: false, handler: starknet_chainId },
  starknet_blockNumber: { params: [], write: false, handler: starknet_blockNumber },
  starknet_blockHashAndNumber: { params: [], write: false, handler: starknet_blockHashAndNumber },
  starknet_syncing: { params: [], write: false, handler: starknet_syncing },
  starknet_getBlockWithTxHashes: { params: ['block_id'], write: false, handler: starknet_getBlockWithTxHashes },
  starknet_getBlockWithTxs: { params: ['block_id'], write: false, handler: starknet_getBlockWithTxs },
  starknet_getBlockWithReceipts: { params: ['block_id'], write: false, handler: starknet_getBlockWithReceipts },
  starknet_getBlockTransactionCount: { params: ['block_id'], write: false, handler: starknet_getBlockTransactionCount },
  starknet_getStateUpdate: { params: ['block_id'], write: false, handler: starknet_getStateUpdate },
  starknet_getStorageAt: {
    params: ['contract_address', 'key', 'block_id'],
    write: false,
    handler: starknet_getStorageAt,
  },
  starknet_getNonce: { params: ['block_id', 'contract_address'], write: false, handler: starknet_getNonce },
  starknet_getClass: { params: ['block_id', 'class_hash'], write: false, handler: starknet_getClass },
  starknet_getClassAt: { params: ['block_id', 'contract_address'], write: false, handler: starknet_getClassAt },
  starknet_getClassHashAt: { params: ['block_id', 'contract_address'], write: false, handler: starknet_getClassHashAt },
  starknet_getTransactionByHash: {
    params: ['transaction_hash', 'response_flags'],
    write: false,
    handler: starknet_getTransactionByHash,
  },
  starknet_getTransactionByBlockIdAndIndex: {
    params: ['block_id', 'index', 'response_flags'],
    write: false,
    handler: starknet_getTransactionByBlockIdAndIndex,
  },
  starknet_getTransactionReceipt: {
    params: ['transaction_hash'],
    write: false,
    handler: starknet_getTransactionReceipt,
  },
  starknet_getTransactionStatus: { params: ['transaction_hash'], write: false, handler: starknet_getTransactionStatus },
  starknet_getEvents: { params: ['filter'], write: false, handler: starknet_getEvents },
  starknet_call: { params: ['request', 'block_id'], write: false, handler: starknet_call },
  starknet_estimateFee: {
    params: ['request', 'simulation_flags', 'block_id'],
    write: false,
    handler: starknet_estimateFee,
  },
  starknet_estimateMessageFee: { params: ['message', 'block_id'], write: false, handler: starknet_estimateMessageFee },
  starknet_simulateTransactions: {
    params: ['block_id', 'transactions', 'simulation_flags'],
    write: false,
    handler: starknet_simulateTransactions,
  },
  starknet_traceTransaction: { params: ['transaction_hash'], write: false, handler: starknet_traceTransaction },
  starknet_traceBlockTransactions: {
    params: ['block_id', 'trace_flags'],
    write: false,
    handler: starknet_traceBlockTransactions,
  },
  starknet_addInvokeTransaction: {
    params: ['invoke_transaction'],
    write: true,
    handler: starknet_addInvokeTransaction,
  },
  starknet_addDeployAccountTransaction: {
    params: ['deploy_account_transaction'],
    write: true,
    handler: starknet_addDeployAccountTransaction,
  },
  starknet_addDeclareTransaction: {
    params: ['declare_transaction'],
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
} as const satisfies Record<string, MethodSpec>;

/** A served method name. */
export type MethodName = keyof typeof methodTable;
