import { ContractNotDeployed, EntryPointNotFound } from '../../chain/execute.js';
import { feeOf, gasUsage } from '../../chain/gas.js';
import { requireObject } from '../../chain/requireObject.js';
import type { Tx } from '../../chain/transaction.js';
import { ExecutionFailure } from '../../contracts/types.js';
import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { parseFelt, parseFelts, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_estimateMessageFee: runs the L1 handler a message from L1 would start (calldata: the
 * L1 sender, then the payload) over the state at `block_id` without committing, and prices the
 * L1_HANDLER row of the gas table in WEI. A contract that is not deployed is CONTRACT_NOT_FOUND;
 * a missing handler or a failing one is CONTRACT_ERROR with the reason.
 */
export function starknet_estimateMessageFee(ctx: MethodContext, p: Params): Record<string, string> {
  const m = requireObject(required(p, 'message'), 'message');
  const from = m.from_address;
  if (typeof from !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(from)) {
    throw invalidParams('message.from_address: expected an L1 address (0x and 40 hex digits)');
  }
  const to = parseFelt(m.to_address, 'message.to_address');
  const sel = parseFelt(m.entry_point_selector, 'message.entry_point_selector');
  const payload = parseFelts(m.payload, 'message.payload');
  const chain = ctx.node.chain;
  const calldata = [BigInt(from), ...payload];
  try {
    chain.call(to, sel, calldata, parseBlockId(required(p, 'block_id')), 'L1_HANDLER');
  } catch (e) {
    if (e instanceof ContractNotDeployed) throw new DevchainError(ErrorCode.CONTRACT_NOT_FOUND);
    if (e instanceof EntryPointNotFound || e instanceof ExecutionFailure) {
      throw new DevchainError(ErrorCode.CONTRACT_ERROR, { data: { revert_error: e.message } });
    }
    throw e;
  }
  const gas = gasUsage({ type: 'L1_HANDLER', calldata } as Tx);
  const prices = chain.config.prices.wei;
  return {
    l1_gas_consumed: toHex(gas.l1_gas),
    l1_gas_price: toHex(prices.l1),
    l2_gas_consumed: toHex(gas.l2_gas),
    l2_gas_price: toHex(prices.l2),
    l1_data_gas_consumed: toHex(gas.l1_data_gas),
    l1_data_gas_price: toHex(prices.l1Data),
    overall_fee: toHex(feeOf(gas, prices, 0n)),
    unit: 'WEI',
  };
}
