import type { NetworkConfig } from '../config';
import { chainCall, providerFor } from '../lib/chain';
import { type Params, reqHash } from '../lib/params';
import { fetchStatus } from '../lib/txStatus';
import { updateState } from '../state/store';
import { applyTransactionStatus, type ExecutionStatus, type TxStatus } from '../state/transitions';

/** Status of a transaction as the wallet reports it. */
export interface TransactionStatusResult {
  transactionHash: string;
  /** The wallet status (RECEIVED, PENDING, ACCEPTED_ON_L2, REJECTED). */
  status: TxStatus;
  /** The node's finality status. */
  finalityStatus: string;
  executionStatus?: ExecutionStatus;
  failureReason?: string;
}

/**
 * stk_getTransactionStatus: the status and execution outcome of a transaction; a stored record is updated.
 *
 * @param p - `{transactionHash}`.
 * @param net - The network.
 * @returns The status.
 */
export async function stk_getTransactionStatus(p: Params, net: NetworkConfig): Promise<TransactionStatusResult> {
  const hash = reqHash(p, 'transactionHash');
  const s = await chainCall(net, `read the status of transaction ${hash}`, () => fetchStatus(providerFor(net), hash));
  await updateState((st) => applyTransactionStatus(st, net.chainId, hash, s));
  return { transactionHash: hash, ...s };
}
