import { parseFelt, parseFelts, toHex } from '../../felt.js';
import { parseEthAddress, parseL1TransactionHash } from '../../messaging/parseEthAddress.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * devnet_postmanSendMessageToL2: a message from L1 without an L1: its L1_HANDLER transaction is accepted at once
 * (CONTRACT_NOT_FOUND or ENTRYPOINT_NOT_FOUND when the target has no such L1 handler; a handler that fails gives a
 * REVERTED transaction). `l1_transaction_hash`, when given, makes it known to starknet_getMessagesStatus.
 */
export function devnet_postmanSendMessageToL2(ctx: MethodContext, p: Params): { transaction_hash: string } {
  const message = {
    to: parseFelt(required(p, 'l2_contract_address'), 'l2_contract_address'),
    selector: parseFelt(required(p, 'entry_point_selector'), 'entry_point_selector'),
    from: parseEthAddress(required(p, 'l1_contract_address'), 'l1_contract_address'),
    payload: parseFelts(required(p, 'payload'), 'payload'),
    paidFee: parseFelt(required(p, 'paid_fee_on_l1'), 'paid_fee_on_l1'),
    nonce: parseFelt(required(p, 'nonce'), 'nonce'),
  };
  const l1Hash =
    p.l1_transaction_hash === undefined
      ? undefined
      : parseL1TransactionHash(p.l1_transaction_hash, 'l1_transaction_hash');
  return { transaction_hash: toHex(ctx.node.postman.sendMessageToL2(message, l1Hash)) };
}
