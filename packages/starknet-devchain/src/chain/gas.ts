/** The deterministic gas model and the fee formula. */
import type { ResourceBounds, Tx } from './transaction.js';

/** Gas amounts of one transaction (execution_resources). */
export interface GasUsage {
  l1_gas: number;
  l1_data_gas: number;
  l2_gas: number;
}

/** Gas prices of a block in one unit. */
export interface UnitPrices {
  l1: bigint;
  l1Data: bigint;
  l2: bigint;
}

/** Gas prices of a block in both units. */
export interface GasPrices {
  fri: UnitPrices;
  wei: UnitPrices;
}

/**
 * Gas used by a transaction: a base amount from its kind and payload (INVOKE 600k L2 gas + 5k per calldata felt,
 * 128 + 2 per felt L1 data gas; DEPLOY_ACCOUNT 900k + 5k per constructor felt, 224; DECLARE 1.5M + 1k per Sierra
 * felt, 192) plus `sierraGas`, the L2 gas consumed by the declared (Sierra) classes that ran (validation, execution,
 * constructors, nested calls; 0 for native-only transactions). The Sierra gas is deterministic, so an estimate
 * equals the charge. v3 transactions of the older two-bound shape (no `l1_data_gas`) are accounted as protocol
 * 0.13.1 did: data gas counted as L1 gas, and all gas as L1 gas when their L2 bound is zero.
 */
export function gasUsage(tx: Tx, sierraGas = 0n): GasUsage {
  let g: GasUsage;
  switch (tx.type) {
    case 'INVOKE':
      g = { l1_gas: 0, l1_data_gas: 128 + 2 * tx.calldata.length, l2_gas: 600_000 + 5_000 * tx.calldata.length };
      break;
    case 'DEPLOY_ACCOUNT':
      g = { l1_gas: 0, l1_data_gas: 224, l2_gas: 900_000 + 5_000 * tx.calldata.length };
      break;
    case 'DECLARE':
      g = { l1_gas: 0, l1_data_gas: 192, l2_gas: 1_500_000 + 1_000 * (tx.contractClass?.sierra_program.length ?? 0) };
      break;
    default:
      g = { l1_gas: 0, l1_data_gas: 0, l2_gas: 100_000 };
  }
  g.l2_gas += Number(sierraGas);
  const rb = tx.resourceBounds;
  if (tx.baseVersion === 3 && rb && !rb.l1_data_gas) {
    g = { l1_gas: g.l1_gas + g.l1_data_gas, l1_data_gas: 0, l2_gas: g.l2_gas };
    if (rb.l2_gas.max_amount === 0n) g = { l1_gas: g.l1_gas + g.l2_gas, l1_data_gas: 0, l2_gas: 0 };
  }
  return g;
}

/**
 * The most Sierra gas a transaction's own limits can pay on top of its base gas ({@link gasUsage} with no Sierra
 * gas), or undefined when they set none: for v3, the bound of the resource the Sierra gas is counted in (L2 gas, or
 * L1 gas in the two-bound shape with a zero L2 bound) less the base amount of it; for v1/v2, the max fee left after
 * the base fee, in L2 gas at the block's price. The base is assumed to fit (checked before).
 */
export function sierraGasBound(tx: Tx, p: UnitPrices, tip: bigint): bigint | undefined {
  const base = gasUsage(tx);
  const rb = tx.resourceBounds;
  if (tx.baseVersion === 3 && rb) {
    const inL1 = !rb.l1_data_gas && rb.l2_gas.max_amount === 0n;
    const left = inL1 ? rb.l1_gas.max_amount - BigInt(base.l1_gas) : rb.l2_gas.max_amount - BigInt(base.l2_gas);
    return left > 0n ? left : 0n;
  }
  if (tx.maxFee === undefined) return undefined;
  const price = p.l2 + tip;
  if (price === 0n) return undefined;
  const left = (tx.maxFee - feeOf(base, p, tip)) / price;
  return left > 0n ? left : 0n;
}

/** actual_fee = l1_gas*p_l1 + l1_data_gas*p_l1data + l2_gas*(p_l2 + tip). */
export function feeOf(g: GasUsage, p: UnitPrices, tip: bigint): bigint {
  return BigInt(g.l1_gas) * p.l1 + BigInt(g.l1_data_gas) * p.l1Data + BigInt(g.l2_gas) * (p.l2 + tip);
}

/** The maximal fee a v3 transaction allows: the sum of each resource's limit x max price. */
export function maxFeeOfBounds(rb: ResourceBounds): bigint {
  let total = rb.l1_gas.max_amount * rb.l1_gas.max_price_per_unit + rb.l2_gas.max_amount * rb.l2_gas.max_price_per_unit;
  if (rb.l1_data_gas) total += rb.l1_data_gas.max_amount * rb.l1_data_gas.max_price_per_unit;
  return total;
}

/** Why the bounds cannot cover `g` at prices `p`, or undefined when they can. */
export function boundsShortfall(rb: ResourceBounds, g: GasUsage, p: UnitPrices): string | undefined {
  const check = (
    name: string,
    amount: number,
    bound: { max_amount: bigint; max_price_per_unit: bigint } | undefined,
    price: bigint,
  ) => {
    if (amount === 0) return undefined;
    if (!bound || bound.max_amount < BigInt(amount))
      return `${name}: max_amount ${bound?.max_amount ?? 0n} < required ${amount}`;
    if (bound.max_price_per_unit < price)
      return `${name}: max_price_per_unit ${bound.max_price_per_unit} < gas price ${price}`;
    return undefined;
  };
  return (
    check('l1_gas', g.l1_gas, rb.l1_gas, p.l1) ??
    check('l1_data_gas', g.l1_data_gas, rb.l1_data_gas, p.l1Data) ??
    check('l2_gas', g.l2_gas, rb.l2_gas, p.l2)
  );
}
