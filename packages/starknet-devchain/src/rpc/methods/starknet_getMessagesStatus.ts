import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_getMessagesStatus: the L2 transactions an L1 transaction's messages started. The dev
 * chain has no L1 (devnet_mint's L1 handler transactions come from no L1 transaction), so every
 * well-formed L1 transaction hash is unknown: TXN_HASH_NOT_FOUND.
 */
export function starknet_getMessagesStatus(_ctx: MethodContext, p: Params): never {
  const hash = required(p, 'transaction_hash');
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(hash)) {
    throw invalidParams(`transaction_hash: expected an L1 transaction hash (0x and up to 64 hex digits)`);
  }
  throw new DevchainError(ErrorCode.TXN_HASH_NOT_FOUND, { data: 'the dev chain has no L1: no message was sent to it' });
}
