import type { ProcessResult } from '../../chain/processTransaction.js';
import type { Chain } from '../../chain/Chain.js';
import type { Tx } from '../../chain/transaction.js';
import { toHex } from '../../felt.js';

/** The spec's FEE_ESTIMATE for a processed transaction. */
export function feeEstimate(chain: Chain, tx: Tx, r: ProcessResult): Record<string, string> {
  const prices = r.unit === 'FRI' ? chain.config.prices.fri : chain.config.prices.wei;
  const tip = tx.baseVersion === 3 ? tx.tip : 0n;
  return {
    l1_gas_consumed: toHex(r.gas.l1_gas),
    l1_gas_price: toHex(prices.l1),
    l2_gas_consumed: toHex(r.gas.l2_gas),
    l2_gas_price: toHex(prices.l2 + tip),
    l1_data_gas_consumed: toHex(r.gas.l1_data_gas),
    l1_data_gas_price: toHex(prices.l1Data),
    overall_fee: toHex(r.fee),
    unit: r.unit,
  };
}
