import { DevchainError, ErrorCode } from '../../errors.js';
import { toHex } from '../../felt.js';
import { parseL1TransactionHash } from '../../messaging/parseEthAddress.js';
import { finalityOf } from '../render.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_getMessagesStatus: the L1_HANDLER transactions that the messages of an L1 transaction started (flushed by
 * the postman, or given an `l1_transaction_hash` in devnet_postmanSendMessageToL2), in the L1 transaction's order,
 * with their finality and execution status. An L1 transaction that started none is TXN_HASH_NOT_FOUND.
 */
export function starknet_getMessagesStatus(ctx: MethodContext, p: Params): Record<string, unknown>[] {
  const l1Hash = parseL1TransactionHash(required(p, 'transaction_hash'), 'transaction_hash');
  const hashes = ctx.node.postman.messagesOf(l1Hash);
  const chain = ctx.node.chain;
  const found = (hashes ?? []).map((h) => chain.getTransaction(h)).filter((t) => t !== undefined);
  if (found.length === 0) {
    throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND, {
      data: 'no message of this L1 transaction reached the dev chain (devnet_postmanFlush brings them)',
    });
  }
  return found.map((t) => {
    const out: Record<string, unknown> = {
      transaction_hash: toHex(t.hash),
      finality_status: finalityOf(chain, t),
      execution_status: t.receipt.execution_status,
    };
    if (t.receipt.revert_reason !== undefined) out.failure_reason = t.receipt.revert_reason;
    return out;
  });
}
