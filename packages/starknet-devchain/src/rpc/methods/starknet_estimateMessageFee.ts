import { requireObject } from '../../chain/requireObject.js';
import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { parseFelt, parseFelts, toHex } from '../../felt.js';
import { l1HandlerTransaction } from '../../messaging/l1HandlerTransaction.js';
import { runL1Message } from '../../messaging/runL1Message.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_estimateMessageFee: runs the L1_HANDLER transaction the message would become (calldata: the L1 sender,
 * then the payload) over the state at `block_id` without committing, exactly as the postman runs it when the message
 * is flushed (`messaging/runL1Message.ts`): the same gas (the L1_HANDLER row of the gas table plus the Sierra gas of
 * the handler) priced in WEI at the prices of the block being built, so the estimate equals the receipt's fee. A
 * contract that is not deployed is CONTRACT_NOT_FOUND; a missing handler or a failing one is CONTRACT_ERROR with the
 * reason.
 */
export function starknet_estimateMessageFee(ctx: MethodContext, p: Params): Record<string, string> {
  const m = requireObject(required(p, 'message'), 'message');
  const from = m.from_address;
  if (typeof from !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(from)) {
    throw invalidParams('message.from_address: expected an L1 address (0x and 40 hex digits)');
  }
  const tx = l1HandlerTransaction({
    from: BigInt(from),
    to: parseFelt(m.to_address, 'message.to_address'),
    selector: parseFelt(m.entry_point_selector, 'message.entry_point_selector'),
    payload: parseFelts(m.payload, 'message.payload'),
    nonce: 0n,
    paidFee: 0n,
  });
  const chain = ctx.node.chain;
  const state = chain.stateAt(parseBlockId(required(p, 'block_id')));
  const env = chain.pendingEnv();
  let result: ReturnType<typeof runL1Message>;
  try {
    result = runL1Message(state, tx, chain.hashOf(tx), env);
  } catch (e) {
    if (e instanceof DevchainError && e.code === ErrorCode.ENTRYPOINT_NOT_FOUND) {
      throw new DevchainError(ErrorCode.CONTRACT_ERROR, { data: { revert_error: String(e.data) } });
    }
    throw e;
  }
  if (result.reverted) {
    throw new DevchainError(ErrorCode.CONTRACT_ERROR, { data: { revert_error: result.revertReason ?? 'reverted' } });
  }
  const prices = env.prices.wei;
  return {
    l1_gas_consumed: toHex(result.gas.l1_gas),
    l1_gas_price: toHex(prices.l1),
    l2_gas_consumed: toHex(result.gas.l2_gas),
    l2_gas_price: toHex(prices.l2),
    l1_data_gas_consumed: toHex(result.gas.l1_data_gas),
    l1_data_gas_price: toHex(prices.l1Data),
    overall_fee: toHex(result.fee),
    unit: 'WEI',
  };
}
