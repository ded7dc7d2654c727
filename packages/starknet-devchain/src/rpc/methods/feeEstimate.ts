import type { ProcessResult } from '../../chain/processTransaction.js';
import type { Chain } from '../../chain/Chain.js';
import { toHex } from '../../felt.js';
import { feeOf } from '../../chain/gas.js';

/**
 * The spec's FEE_ESTIMATE for a processed transaction. The tip is left out, as starknet-devnet does: the estimate
 * is the gas the transaction consumes at the block's gas prices (the same for tip 0 and for a large tip); the tip
 * is what the sender adds on top, and what it is charged when the transaction runs.
 */
export function feeEstimate(chain: Chain, r: ProcessResult): Record<string, string> {
  const prices = r.unit === 'FRI' ? chain.gasPrices.fri : chain.gasPrices.wei;
  return {
    l1_gas_consumed: toHex(r.gas.l1_gas),
    l1_gas_price: toHex(prices.l1),
    l2_gas_consumed: toHex(r.gas.l2_gas),
    l2_gas_price: toHex(prices.l2),
    l1_data_gas_consumed: toHex(r.gas.l1_data_gas),
    l1_data_gas_price: toHex(prices.l1Data),
    overall_fee: toHex(feeOf(r.gas, prices, 0n)),
    unit: r.unit,
  };
}
