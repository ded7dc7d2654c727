import type { RpcProvider } from 'starknet';
import type { ExecutionStatus, StatusUpdate, TxStatus } from '../state/transitions';

/**
 * Maps the node's finality status to the wallet's record status.
 *
 * @param finality - `finality_status` from starknet_getTransactionStatus.
 * @returns The wallet status.
 */
export function walletStatusOf(finality: string): TxStatus {
  switch (finality) {
    case 'RECEIVED':
    case 'CANDIDATE':
      return 'RECEIVED';
    case 'PRE_CONFIRMED':
    case 'PENDING':
      return 'PENDING';
    case 'ACCEPTED_ON_L2':
    case 'ACCEPTED_ON_L1':
      return 'ACCEPTED_ON_L2';
    default:
      return 'REJECTED';
  }
}

/**
 * Reads a transaction's status from the node as a {@link StatusUpdate}.
 *
 * @param provider - The provider.
 * @param txnHash - The transaction hash.
 * @returns The status, with the node's finality status and failure reason.
 */
export async function fetchStatus(
  provider: RpcProvider,
  txnHash: string,
): Promise<StatusUpdate & { finalityStatus: string }> {
  const s = (await provider.getTransactionStatus(txnHash)) as {
    finality_status: string;
    execution_status?: string;
    failure_reason?: string;
  };
  return {
    finalityStatus: s.finality_status,
    status: walletStatusOf(s.finality_status),
    ...(s.execution_status ? { executionStatus: s.execution_status as ExecutionStatus } : {}),
    ...(s.failure_reason ? { failureReason: s.failure_reason } : {}),
  };
}
